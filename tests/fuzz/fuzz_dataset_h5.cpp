// The binarised dataset reader (read_parallel_data) over files with fuzzer-chosen arrays and
// attributes; a file it accepts must satisfy what the trainer's batching then relies on.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "preprocess/dataset_file.h"
#include "tests/fuzz/fuzz_util.h"
#include "tests/fuzz/h5_builder.h"

namespace {
void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz finding: read_parallel_data accepted a file where %s\n", what);
    std::abort();
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace synmt;
  FuzzedDataProvider in(data, size);
  const std::string path = fuzz::scratch_path("dataset.h5");
  {
    fuzz::H5Builder b(in, path);
    const std::size_t sentences = in.ConsumeIntegralInRange<std::size_t>(0, 6);
    const std::size_t tokens = in.ConsumeIntegralInRange<std::size_t>(0, 24);
    b.attribute("format", kDatasetFormat);
    b.attribute("src_vocab_sha256", "s");
    b.attribute("tgt_vocab_sha256", "t");
    b.offsets("src_offsets", sentences);
    b.offsets("tgt_offsets", sentences);
    b.ints("src_tokens", tokens, 20);
    b.ints("tgt_tokens", tokens, 20);
    if (in.ConsumeBool()) b.ints("src_word", tokens, 6);
    if (in.ConsumeBool()) {
      b.reals("src_parent_middle", tokens, 6.0f);
      b.ints("src_parent_first", tokens, 6);
      b.ints("src_label", tokens, 4);
      b.attribute("src_label_names", "<unk>\nnsubj\nobj\nroot");
      b.attribute(kSrcLabelCountAttr, "4");
    }
    if (in.ConsumeBool()) {
      b.ints("src_upos", tokens, 4);
      b.attribute("src_upos_names", "<unk>\nNOUN\nVERB\nPUNCT");
      b.attribute(kSrcUposCountAttr, "4");
    }
    b.attribute(kSrcLabelInventoryAttr, "L");
    b.attribute(kSrcUposInventoryAttr, "U");
  }
  fuzz::expect_clear_errors([&] {
    ParallelData d = read_parallel_data(path, "s", "t", "L", "U");
    for (std::size_t i = 0; i < d.size(); ++i) {
      require(d.src_offsets[i] <= d.src_offsets[i + 1] && d.tgt_offsets[i] <= d.tgt_offsets[i + 1], "offsets decrease");
      if (d.has_word_spans()) d.src_word_spans(i);
      if (!d.has_source_syntax()) continue;
      const int64_t len = d.src_offsets[i + 1] - d.src_offsets[i];
      for (int64_t k = d.src_offsets[i]; k < d.src_offsets[i + 1]; ++k) {
        const float m = d.src_parent_middle[static_cast<std::size_t>(k)];
        require(std::isfinite(m) && m >= 0 && m <= static_cast<float>(len - 1), "a parent middle is not a position of its sentence");
      }
    }
  });
  return 0;
}
