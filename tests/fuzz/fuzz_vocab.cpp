// Vocabulary files: load, then encode and decode a line through the loaded tokens.
#include <string>

#include "preprocess/vocab.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace synmt;
  const std::string path = fuzz::write_input("vocab.txt", data, size);
  fuzz::expect_clear_errors([&] {
    Vocab v = Vocab::load(path);
    auto ids = v.encode("the cat sat on the mat .");
    v.decode(ids);
    v.punctuation_ids();
    v.hash();
    for (std::size_t i = 0; i < v.size() && i < 64; ++i) v.id(v.token(static_cast<int32_t>(i)));
  });
  return 0;
}
