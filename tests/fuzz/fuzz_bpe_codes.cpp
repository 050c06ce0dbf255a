// BPE codes files (subword-nmt's format, with or without the "#version" header): read them, then
// segment a fixed sentence and the codes' own units with the merges they define.
#include <algorithm>
#include <string>

#include "preprocess/bpe.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace synmt;
  const std::string path = fuzz::write_input("codes.bpe", data, size);
  fuzz::expect_clear_errors([&] {
    BpeCodes codes(path);
    codes.apply_line("a quick brown fox jumps over the lazy dog , ünïcödé 日本語");
    // the first merge line (after subword-nmt's "#version" header), as words: merges that
    // produce whole words are exercised too
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::size_t start = 0;
    while (start < text.size() && text[start] == '#') start = std::min(text.find('\n', start), text.size() - 1) + 1;
    const std::string first = text.substr(start, text.find('\n', start) - start);
    if (first.size() < 256) codes.apply_line(first);
  });
  return 0;
}
