// SentencePiece model files as synmt-spm loads them: synmt's structural check of the
// normalisation tables (preprocess/spm_model_check.h: libsentencepiece 0.1.97 reads a damaged table
// out of bounds, a finding of this target), then the library's own loading, encode, decode.
#include <sentencepiece_processor.h>

#include <string>
#include <vector>

#include "preprocess/spm_model_check.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string path = synmt::fuzz::write_input("model.spm", data, size);
  bool checked = false;
  synmt::fuzz::expect_clear_errors([&] {
    synmt::check_spm_model_file(path);
    checked = true;
  });
  if (!checked) return 0;
  sentencepiece::SentencePieceProcessor sp;
  if (!sp.Load(path).ok()) return 0;
  std::vector<std::string> pieces;
  if (!sp.Encode("A quick brown fox, ünïcödé and 日本語.", &pieces).ok()) return 0;
  std::string text;
  (void)sp.Decode(pieces, &text);
  return 0;
}
