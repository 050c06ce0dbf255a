#include "eval/length_buckets.h"

#include "core/error.h"
#include "core/strings.h"
#include "core/utf8.h"

namespace synmt::eval {

std::vector<int> parse_length_bounds(const std::string& spec, const std::string& option) {
  std::vector<int> bounds;
  for (const auto& field : split_fields(spec, ',')) {
    const int b = parse_index(field);
    if (b <= 0 || (!bounds.empty() && b <= bounds.back()))
      throw ConfigError(option + ": expected increasing positive integers separated by commas, got '" + spec + "'");
    bounds.push_back(b);
  }
  return bounds;
}

std::vector<LengthBucket> bleu_by_source_length(const Bleu& bleu, const std::vector<std::string>& hyps,
                                                const std::vector<std::vector<std::string>>& refs,
                                                const std::vector<std::string>& src, const std::vector<int>& bounds) {
  const auto stats = bleu.corpus_stats(hyps, refs);
  std::vector<BleuStats> per(bounds.size() + 1);
  std::vector<int> counts(bounds.size() + 1, 0);
  for (std::size_t i = 0; i < src.size(); ++i) {
    const int len = static_cast<int>(utf8::split_python_whitespace(src[i]).size());
    std::size_t k = 0;
    while (k < bounds.size() && len > bounds[k]) ++k;
    per[k] += stats[i];
    ++counts[k];
  }
  std::vector<LengthBucket> buckets;
  for (std::size_t k = 0; k < per.size(); ++k) {
    const int lo = k == 0 ? 0 : bounds[k - 1] + 1;
    const std::string range = k < bounds.size() ? std::to_string(lo) + "-" + std::to_string(bounds[k]) : ">" + std::to_string(bounds.back());
    buckets.push_back({range, counts[k], counts[k] ? bleu.score(per[k]).score : 0.0});
  }
  return buckets;
}

}  // namespace synmt::eval
