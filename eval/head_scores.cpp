#include "eval/head_scores.h"

#include <cmath>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/hdf5_file.h"

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
  }
  out.commit();
}

std::vector<SentenceHeadScores> read_head_scores(const std::string& path) {
  H5File f(path, H5File::Mode::Read);
  if (!f.has_attribute("format") || f.attribute("format") != kHeadScoresFormat)
    throw InputError(path, 0, std::string("not a head-score file (expected format ") + kHeadScoresFormat + ")");
  auto scores = f.read_float("scores");
  auto score_offsets = f.read_int64("score_offsets");
  auto spans = f.read_int32("spans");
  auto span_offsets = f.read_int64("span_offsets");
  if (score_offsets.empty() || span_offsets.size() != score_offsets.size() ||
      static_cast<std::size_t>(score_offsets.back()) != scores.size() ||
      static_cast<std::size_t>(span_offsets.back()) * 2 != spans.size())
    throw InputError(path, 0, "inconsistent offsets (truncated or corrupt head-score file)");
  std::vector<SentenceHeadScores> out(score_offsets.size() - 1);
  for (std::size_t s = 0; s < out.size(); ++s) {
    const std::string where = "sentence " + std::to_string(s + 1) + ": ";
    const int64_t size = score_offsets[s + 1] - score_offsets[s];
    const auto n = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(size))));
    if (size < 0 || n * n != size) throw InputError(path, 0, where + "score block is not a square matrix");
    out[s].pieces.assign(static_cast<std::size_t>(n), std::vector<double>(static_cast<std::size_t>(n)));
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        float v = scores[static_cast<std::size_t>(score_offsets[s] + i * n + j)];
        if (!std::isfinite(v)) throw InputError(path, 0, where + "non-finite score (NaN or inf) in the head matrix");
        out[s].pieces[i][j] = v;
      }
    int expected_first = 0;
    for (int64_t w = span_offsets[s]; w < span_offsets[s + 1]; ++w) {
      int a = spans[static_cast<std::size_t>(2 * w)], b = spans[static_cast<std::size_t>(2 * w + 1)];
      if (a != expected_first || b < a || b >= n)
        throw InputError(path, 0, where + "word spans must cover the pieces contiguously (word " +
                                      std::to_string(w - span_offsets[s] + 1) + " spans " + std::to_string(a) + ".." +
                                      std::to_string(b) + ")");
      out[s].spans.emplace_back(a, b);
      expected_first = b + 1;
    }
    if (expected_first != n) throw InputError(path, 0, where + "word spans do not cover all " + std::to_string(n) + " pieces");
  }
  return out;
}

}  // namespace synmt::eval
