#pragma once
// chrF / chrF++ with sacreBLEU 2.x semantics: character n-grams (whitespace removed) up to
// char_order, word n-grams up to word_order over punctuation-split words, per-segment best
// reference by F-score, corpus F from summed statistics with effective-order averaging.
#include <cstdint>
#include <string>
#include <vector>

namespace synmt::eval {

struct ChrfOptions {
  int char_order = 6;
  int word_order = 0;  // 2 = chrF++
  int beta = 2;
  bool lowercase = false;
  bool whitespace = false;
  bool eps_smoothing = false;
};

// Per segment: [hyp, ref, match] for every order (char orders first, then word orders).
using ChrfStats = std::vector<double>;

class Chrf {
 public:
  explicit Chrf(ChrfOptions options);
  ChrfStats segment_stats(const std::string& hyp, const std::vector<std::string>& refs) const;
  std::vector<ChrfStats> corpus_stats(const std::vector<std::string>& hyps,
                                      const std::vector<std::vector<std::string>>& refs) const;
  // Score from (summed) statistics. Real = float reproduces sacreBLEU's float32 resampling path.
  template <class Real>
  double score(const ChrfStats& summed) const;
  double corpus_score(const std::vector<std::string>& hyps, const std::vector<std::vector<std::string>>& refs) const;
  std::string signature(std::size_t num_refs) const;
  int orders() const { return options_.char_order + options_.word_order; }

 private:
  ChrfOptions options_;
};

}  // namespace synmt::eval
