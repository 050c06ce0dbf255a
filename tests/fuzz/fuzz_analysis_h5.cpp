// Per-sentence tensor files read by synmt-trees and the analysis tables: head-score files,
// teacher-forced analysis dumps (ragged tensors with shapes and word spans) and gate-norm files,
// planned as their writers write them and then, for about half of the inputs, damaged
// (tests/fuzz/h5_builder.h). A valid file must be accepted; an accepted one must satisfy the
// readers' guarantees: square finite matrices, word spans that cover the pieces contiguously.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/ragged.h"
#include "eval/gate_norms.h"
#include "eval/head_scores.h"
#include "tests/fuzz/fuzz_util.h"
#include "tests/fuzz/h5_builder.h"

namespace {

using synmt::fuzz::require;

// Word spans (first, last piece) that cover `pieces` pieces contiguously.
std::vector<int32_t> spans_over(synmt::fuzz::H5Plan& plan, int64_t pieces) {
  std::vector<int32_t> spans;
  for (int64_t first = 0; first < pieces;) {
    const int64_t last = plan.draw(first, std::min(pieces - 1, first + 2));
    spans.push_back(static_cast<int32_t>(first));
    spans.push_back(static_cast<int32_t>(last));
    first = last + 1;
  }
  return spans;
}

void require_covering(const std::vector<std::pair<int, int>>& spans, std::size_t pieces) {
  int expected = 0;
  for (const auto& [a, b] : spans) {
    require(a == expected && b >= a, "accepted word spans that are not contiguous");
    expected = b + 1;
  }
  require(static_cast<std::size_t>(expected) == pieces, "accepted word spans that do not cover the pieces");
}

void check_head_scores(const std::vector<synmt::eval::SentenceHeadScores>& sentences, bool spans) {
  for (const auto& s : sentences) {
    for (const auto& row : s.pieces) {
      require(row.size() == s.pieces.size(), "accepted a score matrix that is not square");
      for (double v : row) require(std::isfinite(v), "accepted a non-finite score");
    }
    if (spans) require_covering(s.spans, s.pieces.size());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace synmt;
  FuzzedDataProvider in(data, size);
  const std::string path = fuzz::scratch_path("analysis.h5");
  fuzz::H5Plan plan(in);
  const int kind = static_cast<int>(plan.draw(0, 2));
  const int64_t items = plan.draw(0, 4);
  const int64_t heads = plan.draw(0, 2);  // analysis dumps: 0 = (src src) per sentence, else (heads src src)
  std::vector<float> values;
  std::vector<int32_t> spans, shapes, span_shapes;
  std::vector<int64_t> value_lengths, span_lengths;
  for (int64_t s = 0; s < items; ++s) {
    const int64_t pieces = plan.draw(0, 5);
    const int64_t block = kind == 2 ? pieces : (heads == 0 || kind == 0 ? 1 : heads) * pieces * pieces;
    for (int64_t k = 0; k < block; ++k) values.push_back(static_cast<float>(plan.draw(-8, 8)) / 4.0f);
    value_lengths.push_back(block);
    if (kind == 1) {
      if (heads > 0) shapes.push_back(static_cast<int32_t>(heads));
      shapes.push_back(static_cast<int32_t>(pieces));
      shapes.push_back(static_cast<int32_t>(pieces));
    }
    const auto sentence_spans = spans_over(plan, pieces);
    spans.insert(spans.end(), sentence_spans.begin(), sentence_spans.end());
    span_lengths.push_back(static_cast<int64_t>(sentence_spans.size() / (kind == 1 ? 1 : 2)));  // dumps count values, the others pairs
    span_shapes.push_back(static_cast<int32_t>(sentence_spans.size() / 2));
    span_shapes.push_back(2);
  }
  if (kind == 0 || kind == 2) {
    plan.attribute("format", kind == 0 ? eval::kHeadScoresFormat : eval::kGateNormsFormat);
    plan.array(kind == 0 ? "scores" : "norms", values);
    plan.array(kind == 0 ? "score_offsets" : "norm_offsets", fuzz::H5Plan::offsets_of(value_lengths));
    plan.array("spans", spans);
    plan.array("span_offsets", fuzz::H5Plan::offsets_of(span_lengths));
  } else {
    plan.attribute("format", kAnalysisFormat);
    plan.array("heads", values);
    plan.array("heads_offsets", fuzz::H5Plan::offsets_of(value_lengths));
    plan.array("heads_shapes", shapes);
    plan.array("word_spans", spans);
    plan.array("word_spans_offsets", fuzz::H5Plan::offsets_of(span_lengths));
    plan.array("word_spans_shapes", span_shapes);
  }
  const int damages = plan.damage();
  plan.write(path);
  const auto valid = [&](const std::string& error) { require(error.empty() || damages > 0, "a valid file was refused: " + error); };
  if (kind == 0)
    valid(fuzz::clear_error_of([&] { check_head_scores(eval::read_head_scores(path), true); }));
  if (kind == 1) {
    for (int head : {-1, 0, 1, 2})
      for (bool word_spans : {true, false}) {
        const std::string error = fuzz::clear_error_of([&] {
          const auto sentences = eval::read_head_scores_from_analysis(path, "heads", head, eval::MatrixRows::kDependentRows, word_spans);
          check_head_scores(sentences, word_spans);
        });
        if (items == 0 || (heads == 0 ? head == -1 : head >= 0 && head < heads)) valid(error);  // else the head does not exist
      }
    valid(fuzz::clear_error_of([&] {
      H5File f(path, H5File::Mode::Read);
      const auto matrices = read_ragged<float>(f, {"heads", "heads_offsets", "heads_shapes"});
      for (std::size_t i = 0; i < matrices.size(); ++i) {
        double n = 1;  // a damaged shape's product may not fit an integer
        for (int32_t d : matrices.shape(i)) n *= d;
        require(n == static_cast<double>(matrices.block_size(i)), "accepted a shape that does not match its block");
      }
    }));
  }
  if (kind == 2)
    valid(fuzz::clear_error_of([&] {
      for (const auto& s : eval::read_gate_norms(path)) {
        for (double v : s.norms) require(std::isfinite(v), "accepted a non-finite gate norm");
        require_covering(s.spans, s.norms.size());
      }
    }));
  return 0;
}
