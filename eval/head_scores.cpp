#include "eval/head_scores.h"

#include <cmath>
#include <limits>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/hdf5_file.h"
#include "core/ragged.h"
#include "eval/span_arrays.h"

namespace synmt::eval {

void write_head_scores(const std::string& path, const std::vector<SentenceHeadScores>& sentences) {
  SpanArrays arrays;
  for (const auto& s : sentences) {
    std::vector<double> block;
    for (const auto& row : s.pieces) block.insert(block.end(), row.begin(), row.end());
    arrays.add(block, s.spans);
  }
  write_span_arrays(path, {"scores", "score_offsets"}, kHeadScoresFormat, arrays);
}

namespace {
// One sentence's n x n block (row-major; transposed when `transpose`) and its word spans, checked
// (spans null: a sentence without word spans, scored by pieces).
SentenceHeadScores checked_sentence(const std::string& path, std::size_t s, const float* block, int64_t n, bool transpose,
                                    const int32_t* spans, int64_t words) {
  const std::string where = "sentence " + std::to_string(s + 1) + ": ";
  SentenceHeadScores out;
  out.pieces.assign(static_cast<std::size_t>(n), std::vector<double>(static_cast<std::size_t>(n)));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float v = transpose ? block[j * n + i] : block[i * n + j];
      // -inf is an arc a model masked (SA-NMT's mask_punct_heads keeps punctuation from heading):
      // the §7.1 word sums and the spanning-tree search assume every arc has a score, so such a
      // dump is refused by name rather than decoded into trees the masked arcs would distort
      if (v == -std::numeric_limits<float>::infinity())
        throw InputError(path, 0, where + "a score of -inf in the head matrix: arcs masked by the model (mask_punct_heads); "
                                          "tree induction needs every arc scored: induce trees from a model trained without it");
      if (!std::isfinite(v)) throw InputError(path, 0, where + "non-finite score (NaN or inf) in the head matrix");
      out.pieces[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = v;
    }
  if (spans == nullptr) return out;
  int expected_first = 0;
  for (int64_t w = 0; w < words; ++w) {
    int a = spans[2 * w], b = spans[2 * w + 1];
    if (a != expected_first || b < a || b >= n)
      throw InputError(path, 0, where + "word spans must cover the pieces contiguously (word " + std::to_string(w + 1) + " spans " +
                                    std::to_string(a) + ".." + std::to_string(b) + ")");
    out.spans.emplace_back(a, b);
    expected_first = b + 1;
  }
  if (expected_first != n) throw InputError(path, 0, where + "word spans do not cover all " + std::to_string(n) + " pieces");
  return out;
}
}  // namespace

std::vector<SentenceHeadScores> read_head_scores(const std::string& path) {
  const SpanArrays file = read_span_arrays(path, {"scores", "score_offsets"}, kHeadScoresFormat, "head-score file");
  std::vector<SentenceHeadScores> out(file.size());
  for (std::size_t s = 0; s < out.size(); ++s) {
    const int64_t size = file.value_offsets[s + 1] - file.value_offsets[s];
    const auto n = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(size))));
    if (size < 0 || n * n != size) throw InputError(path, 0, "sentence " + std::to_string(s + 1) + ": score block is not a square matrix");
    out[s] = checked_sentence(path, s, file.values.data() + file.value_offsets[s], n, false, file.spans.data() + 2 * file.span_offsets[s],
                              file.span_offsets[s + 1] - file.span_offsets[s]);
  }
  return out;
}

std::vector<SentenceHeadScores> read_head_scores_from_analysis(const std::string& path, const std::string& tensor, int head,
                                                               MatrixRows rows, bool word_spans) {
  H5File f(path, H5File::Mode::Read);
  if (!f.has_attribute("format") || f.attribute("format") != kAnalysisFormat)
    throw InputError(path, 0, std::string("not an analysis dump (expected format ") + kAnalysisFormat + ")");
  std::string stored = tensor;
  for (auto& c : stored)
    if (c == '/') c = '.';
  if (!f.has(stored)) throw InputError(path, 0, "no analysis tensor '" + tensor + "' in the dump");
  const auto matrices = read_ragged<float>(f, {stored, stored + "_offsets", stored + "_shapes"});
  if (word_spans && !f.has("word_spans")) throw InputError(path, 0, "the dump has no word spans (decode a split binarised with word spans)");
  const auto spans = word_spans ? read_ragged<int32_t>(f, {"word_spans", "word_spans_offsets", "word_spans_shapes"}) : Ragged<int32_t>();
  if (word_spans && spans.size() != matrices.size())
    throw InputError(path, 0, std::to_string(matrices.size()) + " matrices but " + std::to_string(spans.size()) + " span lists");
  std::vector<SentenceHeadScores> out(matrices.size());
  for (std::size_t s = 0; s < out.size(); ++s) {
    const auto shape = matrices.shape(s);
    const float* block = matrices.block(s);
    int64_t n = 0;
    if (shape.size() == 2 && shape[0] == shape[1]) {
      if (head >= 0) throw ConfigError("--head: tensor '" + tensor + "' has no heads (its sentences are n x n)");
      n = shape[0];
    } else if (shape.size() == 3 && shape[1] == shape[2]) {
      if (head < 0 || head >= shape[0])
        throw ConfigError("tensor '" + tensor + "' has " + std::to_string(shape[0]) + " heads: choose one with --head 0.." +
                          std::to_string(shape[0] - 1));
      n = shape[1];
      block += static_cast<int64_t>(head) * n * n;
    } else {
      throw InputError(path, 0, "tensor '" + tensor + "' is not a square matrix per sentence (or per head)");
    }
    if (!word_spans) {
      out[s] = checked_sentence(path, s, block, n, rows == MatrixRows::kDependentRows, nullptr, 0);
      continue;
    }
    const auto span_shape = spans.shape(s);
    if (span_shape.size() != 2 || span_shape[1] != 2) throw InputError(path, 0, "word_spans: not (words x 2) per sentence");
    out[s] = checked_sentence(path, s, block, n, rows == MatrixRows::kDependentRows, spans.block(s), span_shape[0]);
  }
  return out;
}

}  // namespace synmt::eval
