// Per-sentence tensor files read by synmt-trees and the analysis tables: head-score files,
// teacher-forced analysis dumps (ragged tensors with shapes and word spans) and gate-norm files,
// with fuzzer-chosen arrays, offsets and shapes.
#include <fuzzer/FuzzedDataProvider.h>

#include <string>

#include "core/ragged.h"
#include "eval/gate_norms.h"
#include "eval/head_scores.h"
#include "tests/fuzz/fuzz_util.h"
#include "tests/fuzz/h5_builder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace synmt;
  FuzzedDataProvider in(data, size);
  const std::string path = fuzz::scratch_path("analysis.h5");
  const int kind = in.ConsumeIntegralInRange<int>(0, 2);
  const std::size_t items = in.ConsumeIntegralInRange<std::size_t>(0, 4);
  const std::size_t values = in.ConsumeIntegralInRange<std::size_t>(0, 40);
  {
    fuzz::H5Builder b(in, path);
    if (kind == 0) {
      b.attribute("format", eval::kHeadScoresFormat);
      b.reals("scores", values, 1.0f);
      b.offsets("score_offsets", items);
      b.ints("spans", values / 2, 5);
      b.offsets("span_offsets", items);
    } else if (kind == 1) {
      b.attribute("format", kAnalysisFormat);
      b.reals("heads", values, 1.0f);
      b.offsets("heads_offsets", items);
      b.ints("heads_shapes", items * in.ConsumeIntegralInRange<std::size_t>(1, 3), 5);
      b.ints("word_spans", values / 2, 5);
      b.offsets("word_spans_offsets", items);
      b.ints("word_spans_shapes", items * 2, 5);
    } else {
      b.attribute("format", eval::kGateNormsFormat);
      b.reals("norms", values, 1.0f);
      b.offsets("norm_offsets", items);
      b.ints("spans", values / 2, 5);
      b.offsets("span_offsets", items);
    }
  }
  if (kind == 0) fuzz::expect_clear_errors([&] { eval::read_head_scores(path); });
  if (kind == 1) {
    for (int head : {-1, 0, 1})
      for (bool spans : {true, false})
        fuzz::expect_clear_errors([&] {
          eval::read_head_scores_from_analysis(path, "heads", head, eval::MatrixRows::kDependentRows, spans);
        });
    fuzz::expect_clear_errors([&] {
      H5File f(path, H5File::Mode::Read);
      read_ragged<float>(f, {"heads", "heads_offsets", "heads_shapes"});
    });
  }
  if (kind == 2) fuzz::expect_clear_errors([&] { eval::read_gate_norms(path); });
  return 0;
}
