#pragma once
// Corpus BLEU with sacreBLEU 2.x semantics: tokenisers, n-gram statistics clipped by the maximum
// count over references, closest reference length, smoothing methods, and the signature string.
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace synmt::eval {

struct BleuOptions {
  std::string tokenize = "13a";  // 13a | intl | zh | char | none | ja-mecab
  std::string mecab_dicdir;       // ja-mecab: IPAdic directory (empty = MeCab default)
  std::string smooth = "exp";    // exp | floor | add-k | none
  double smooth_value = -1;      // <0: sacreBLEU's default for the method (floor 0.1, add-k 1)
  bool lowercase = false;
  bool effective_order = false;
  static constexpr int kMaxOrder = 4;
};

// Per-segment sufficient statistics: sys_len, ref_len, correct[4], total[4].
struct BleuStats {
  int64_t sys_len = 0, ref_len = 0;
  std::array<int64_t, BleuOptions::kMaxOrder> correct{}, total{};
  BleuStats& operator+=(const BleuStats& o);
};

struct BleuResult {
  double score = 0, bp = 0;
  std::array<double, BleuOptions::kMaxOrder> precisions{};
  BleuStats stats;
  // counts/totals as sacreBLEU reports them: after add-k smoothing has added k to orders > 1
  std::array<double, BleuOptions::kMaxOrder> reported_counts{}, reported_totals{};
};

// One segment's references prepared once (reused for every system scored against them): tokens
// get segment-local ids, n-grams become packed 64-bit keys with their maximum count over refs.
struct PreparedReference {
  // The distinct reference tokens (local id = first-occurrence order): their bytes, their spans,
  // and an open-addressing index (high half of string_hash << 32) | (id + 1), 0 = empty.
  std::string vocab_text;
  std::vector<std::pair<uint32_t, uint32_t>> vocab_spans;
  std::vector<uint64_t> vocab_slots;
  std::string_view token(std::size_t id) const {
    return std::string_view(vocab_text).substr(vocab_spans[id].first, vocab_spans[id].second);
  }
  uint64_t token_id(std::string_view token) const;  // kUnknownToken when absent
  uint64_t add_token(std::string_view token);       // its id, new or not
  static constexpr uint64_t kUnknownToken = 0x7FFF;
  std::vector<std::pair<uint64_t, int64_t>> max_counts;  // sorted by key
  std::vector<int64_t> lengths;
  // open-addressing index into max_counts (power-of-two size, empty slots = -1)
  std::vector<int32_t> slots;
  int32_t find(uint64_t key) const;
};

class Bleu {
 public:
  explicit Bleu(BleuOptions options);
  // refs[r][i] is reference r of segment i.
  BleuStats segment_stats(const std::string& hyp, const std::vector<std::string>& refs) const;
  std::vector<BleuStats> corpus_stats(const std::vector<std::string>& hyps,
                                      const std::vector<std::vector<std::string>>& refs) const;
  // refs[r][i] -> one PreparedReference per segment
  std::vector<PreparedReference> prepare_references(const std::vector<std::vector<std::string>>& refs) const;
  BleuStats segment_stats(const std::string& hyp, const PreparedReference& ref) const;
  std::vector<BleuStats> corpus_stats(const std::vector<std::string>& hyps, const std::vector<PreparedReference>& refs) const;
  BleuResult score(const BleuStats& total) const { return score_impl<double>(total); }
  // sacreBLEU's bootstrap sums float32 statistics and NumPy keeps the precisions in float32;
  // this reproduces its per-resample scores bit for bit.
  BleuResult score_float32(const BleuStats& total) const { return score_impl<float>(total); }
  BleuResult corpus_score(const std::vector<std::string>& hyps, const std::vector<std::vector<std::string>>& refs) const;
  std::string signature(std::size_t num_refs) const;

 private:
  void prepare_range(const std::vector<std::vector<std::string>>& refs, std::vector<PreparedReference>& out,
                     std::size_t begin, std::size_t end) const;
  template <class Real>
  BleuResult score_impl(const BleuStats& total) const;
  std::string preprocess(const std::string& line) const;
  BleuOptions options_;
  std::function<std::string(const std::string&)> tokenizer_;
};

}  // namespace synmt::eval
