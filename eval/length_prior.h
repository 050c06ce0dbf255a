#pragma once
// The target-length prior of LGP-NMT's beam search (Hashimoto & Tsuruoka 2017, after Eriguchi et al.
// 2016): p(L_y | L_x) estimated from the training pairs' token counts, with add-one smoothing over
// L_y = 1 .. the longest target observed. A source length never seen in training backs off to the
// nearest one that was (the shorter on a tie). Search adds log p(L_y | L_x) to a finished
// hypothesis' log-probability before its length normalisation; L_y counts the words without </s>.
#include <cstdint>
#include <map>
#include <string>

namespace synmt::eval {

inline constexpr const char* kLengthPriorFormat = "synmt-length-prior-1";

class LengthPrior {
 public:
  // Token counts of each line pair (whitespace-separated tokens); InputError naming the file on
  // unequal line counts or an empty training set.
  static LengthPrior estimate(const std::string& src_path, const std::string& tgt_path);
  static LengthPrior from_counts(const std::map<int64_t, std::map<int64_t, int64_t>>& counts);
  static LengthPrior load(const std::string& path);  // InputError on another format or broken JSON
  void save(const std::string& path) const;          // atomic

  double log_prob(int64_t src_len, int64_t tgt_len) const;
  int64_t max_target_length() const { return max_tgt_; }

 private:
  std::map<int64_t, std::map<int64_t, int64_t>> counts_;  // L_x -> L_y -> pairs
  std::map<int64_t, int64_t> totals_;                     // L_x -> pairs
  int64_t max_tgt_ = 0;
};

}  // namespace synmt::eval
