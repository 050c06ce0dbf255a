// BPE codes files (subword-nmt's format, with or without the "#version" header): read them, then
// segment a fixed sentence and the codes' own units with the merges they define.
#include <string>

#include "preprocess/bpe.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace synmt;
  const std::string path = fuzz::write_input("codes.bpe", data, size);
  fuzz::expect_clear_errors([&] {
    BpeCodes codes(path);
    codes.apply_line("a quick brown fox jumps over the lazy dog , ünïcödé 日本語");
    // the file's first line, as words: merges that produce whole words are exercised too
    std::string first(reinterpret_cast<const char*>(data), size);
    first = first.substr(0, first.find('\n'));
    if (first.size() < 256) codes.apply_line(first);
  });
  return 0;
}
