#include "eval/head_scores.h"

#include <cmath>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/hdf5_file.h"
#include "core/ragged.h"

namespace synmt::eval {

void write_head_scores(const std::string& path, const std::vector<SentenceHeadScores>& sentences) {
  std::vector<float> scores;
  std::vector<int64_t> score_offsets{0}, span_offsets{0};
  std::vector<int32_t> spans;
  for (const auto& s : sentences) {
    for (const auto& row : s.pieces)
      for (double v : row) scores.push_back(static_cast<float>(v));
    score_offsets.push_back(static_cast<int64_t>(scores.size()));
    for (const auto& [a, b] : s.spans) {
      spans.push_back(a);
      spans.push_back(b);
    }
    span_offsets.push_back(static_cast<int64_t>(spans.size() / 2));
  }
  AtomicPath out(path);
  {
    H5File f(out.temp_path(), H5File::Mode::Create);
    f.write("scores", scores);
    f.write("score_offsets", score_offsets);
    f.write("spans", spans);
    f.write("span_offsets", span_offsets);
    f.set_attribute("format", kHeadScoresFormat);
    f.close();  // flushes: a full disk fails here, before the rename
  }
  out.commit();
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
  H5File f(path, H5File::Mode::Read);
  if (!f.has_attribute("format") || f.attribute("format") != kHeadScoresFormat)
    throw InputError(path, 0, std::string("not a head-score file (expected format ") + kHeadScoresFormat + ")");
  auto scores = f.read_float("scores");
  auto score_offsets = f.read_int64("score_offsets");
  auto spans = f.read_int32("spans");
  auto span_offsets = f.read_int64("span_offsets");
  check_offsets(path, score_offsets, scores.size(), "scores: ");
  check_offsets(path, span_offsets, spans.size() / 2, "spans: ");
  if (span_offsets.size() != score_offsets.size() || spans.size() % 2 != 0)
    throw InputError(path, 0, "inconsistent offsets (truncated or corrupt head-score file)");
  std::vector<SentenceHeadScores> out(score_offsets.size() - 1);
  for (std::size_t s = 0; s < out.size(); ++s) {
    const int64_t size = score_offsets[s + 1] - score_offsets[s];
    const auto n = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(size))));
    if (size < 0 || n * n != size) throw InputError(path, 0, "sentence " + std::to_string(s + 1) + ": score block is not a square matrix");
    out[s] = checked_sentence(path, s, scores.data() + score_offsets[s], n, false, spans.data() + 2 * span_offsets[s],
                              span_offsets[s + 1] - span_offsets[s]);
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
