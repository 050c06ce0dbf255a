// The vocabulary file of apply-bpe --vocabulary (subword-nmt's get-vocab format, "unit count" lines),
// read with a fixed set of real merge operations (the first 40 learned on Multi30k German, as in
// corpus/fuzz_bpe_codes/codes_de_40) and a threshold from the input's first byte. An accepted file
// must leave segmentation reversible: removing the separators gives back the sentence.
#include <cstdio>
#include <string>

#include "preprocess/bpe.h"
#include "tests/fuzz/fuzz_util.h"

namespace {
const char* const kCodes =
    "#version: 0.2\n"
    "e i\n"
    "n e\n"
    "e n</w>\n"
    "ei ne\n"
    "i n</w>\n"
    "c h\n"
    "u n\n"
    "e r</w>\n"
    "e r\n"
    "a u\n"
    "a n\n"
    "e n\n"
    "E in</w>\n"
    "eine m</w>\n"
    "i n\n"
    "un d</w>\n"
    "s ch\n"
    "au f</w>\n"
    "e l\n"
    "a r\n"
    "s t\n"
    "s i\n"
    "e h\n"
    "M an\n"
    "r a\n"
    "eine r</w>\n"
    "d er</w>\n"
    "m i\n"
    "Man n</w>\n"
    "h r\n"
    "mi t</w>\n"
    "n e</w>\n"
    "ei n</w>\n"
    "i e</w>\n"
    "t .</w>\n"
    "e i</w>\n"
    "c k\n"
    "ei ne</w>\n"
    "t en</w>\n"
    ;
const char* const kSentence = "ein mann in einem blauen hemd steht auf einer leiter , ünïcödé 日本語 einen";
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace synmt;
  static const std::string codes = [] {
    const std::string path = fuzz::scratch_path("codes.bpe");
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr || std::fputs(kCodes, f) < 0 || std::fclose(f) != 0) std::abort();
    return path;
  }();
  BpeApplyOptions options;
  options.vocabulary = fuzz::write_input("vocab.txt", data, size);
  options.vocabulary_threshold = size > 0 ? static_cast<int>(data[0] % 4) - 1 : -1;
  fuzz::expect_clear_errors([&] {
    const BpeCodes bpe(codes, options);
    std::string joined = bpe.apply_line(kSentence);
    for (std::size_t at; (at = joined.find("@@ ")) != std::string::npos;) joined.erase(at, 3);
    fuzz::require(joined == kSentence, "segmentation with an accepted vocabulary is not reversible: " + joined);
  });
  return 0;
}
