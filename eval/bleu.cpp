#include "eval/bleu.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include <unicode/uchar.h>

#include "core/string_hash.h"
#include "core/utf8.h"
#include "eval/bleu_tokenizers.h"
#include "synmt/version.h"

namespace synmt::eval {

BleuStats& BleuStats::operator+=(const BleuStats& o) {
  sys_len += o.sys_len;
  ref_len += o.ref_len;
  for (int n = 0; n < BleuOptions::kMaxOrder; ++n) {
    correct[n] += o.correct[n];
    total[n] += o.total[n];
  }
  return *this;
}

Bleu::Bleu(BleuOptions options) : options_(std::move(options)) {
  // BLEU only ever splits the tokenised text (split_views / split_python_whitespace)
  tokenizer_ = make_bleu_tokenizer(options_.tokenize, options_.mecab_dicdir, /*only_split=*/true);
  if (options_.smooth != "exp" && options_.smooth != "floor" && options_.smooth != "add-k" && options_.smooth != "none")
    throw std::invalid_argument("unknown smoothing '" + options_.smooth + "'");
  if (options_.smooth_value < 0) options_.smooth_value = options_.smooth == "floor" ? 0.1 : options_.smooth == "add-k" ? 1 : 0;
}

std::string Bleu::preprocess(const std::string& raw) const {
  // sacreBLEU rstrip()s each line (Unicode whitespace) before tokenising
  std::string line = raw;
  while (!line.empty()) {
    std::size_t p = line.size() - 1;
    while (p > 0 && (static_cast<unsigned char>(line[p]) & 0xC0) == 0x80) --p;
    std::size_t q = p;
    if (!utf8::is_python_space(utf8::next(line, q))) break;
    line.resize(p);
  }
  if (options_.lowercase) {
    // ICU's simple case mapping; Python's str.lower() differs only for the few characters with a
    // multi-character full mapping (U+0130).
    std::u32string u = utf8::decode(line);
    for (char32_t& c : u) c = static_cast<char32_t>(u_tolower(static_cast<UChar32>(c)));
    line = utf8::encode(u);
  }
  return tokenizer_(line);
}

namespace {
using NgramCounts = std::unordered_map<std::string, int64_t>;
int64_t extract_ngrams(const std::string& line, NgramCounts& counts) {
  std::vector<std::string> tokens = utf8::split_python_whitespace(line);
  for (int n = 1; n <= BleuOptions::kMaxOrder; ++n) {
    for (std::size_t i = 0; i + n <= tokens.size(); ++i) {
      std::string key = tokens[i];
      for (int k = 1; k < n; ++k) key += " " + tokens[i + k];
      ++counts[key];
    }
  }
  return static_cast<int64_t>(tokens.size());
}
}  // namespace

namespace {
constexpr uint64_t kUnknownId = PreparedReference::kUnknownToken;  // absent from every reference
constexpr std::size_t kMaxLocalTokens = 0x7FFF;

// n-gram of local ids (15 bits each) with its order in the top bits: equal keys = equal n-grams
uint64_t pack(const std::vector<uint64_t>& ids, std::size_t start, int n) {
  uint64_t key = static_cast<uint64_t>(n) << 60;
  for (int k = 0; k < n; ++k) key |= ids[start + k] << (15 * k);
  return key;
}

// Sorted (key, count) of every n-gram (orders 1..4) without unknown tokens.
std::vector<std::pair<uint64_t, int64_t>> count_keys(const std::vector<uint64_t>& ids) {
  std::vector<uint64_t> keys;
  keys.reserve(ids.size() * BleuOptions::kMaxOrder);
  for (int n = 1; n <= BleuOptions::kMaxOrder; ++n)
    for (std::size_t i = 0; i + n <= ids.size(); ++i) {
      bool known = true;
      for (int k = 0; k < n && known; ++k) known = ids[i + k] != kUnknownId;
      if (known) keys.push_back(pack(ids, i, n));
    }
  std::sort(keys.begin(), keys.end());
  std::vector<std::pair<uint64_t, int64_t>> counts;
  for (uint64_t k : keys) {
    if (!counts.empty() && counts.back().first == k) ++counts.back().second;
    else counts.emplace_back(k, 1);
  }
  return counts;
}

// Local ids through the segment's hashed vocabulary: one probe and one comparison per token (a
// binary search over the sorted strings, the first version, was a fifth of paired-bs' time).
std::vector<uint64_t> local_ids(const std::vector<std::string_view>& tokens, const PreparedReference& ref) {
  std::vector<uint64_t> ids;
  ids.reserve(tokens.size());
  for (std::string_view t : tokens) ids.push_back(ref.token_id(t));
  return ids;
}

uint64_t mix(uint64_t k) {  // splitmix64 finaliser: spreads the packed keys over the table
  k ^= k >> 30;
  k *= 0xbf58476d1ce4e5b9ULL;
  k ^= k >> 27;
  k *= 0x94d049bb133111ebULL;
  return k ^ (k >> 31);
}

// Python str.split() into views of `s` (valid while s lives): no allocation per token.
std::vector<std::string_view> split_views(const std::string& s) {
  std::vector<std::string_view> out;
  std::size_t i = 0, start = 0;
  bool in_word = false;
  while (i < s.size()) {
    std::size_t here = i;
    const bool space = utf8::next_is_python_space(s, i);
    if (space && in_word) out.emplace_back(s.data() + start, here - start);
    if (!space && !in_word) start = here;
    in_word = !space;
  }
  if (in_word) out.emplace_back(s.data() + start, s.size() - start);
  return out;
}
}  // namespace

std::vector<PreparedReference> Bleu::prepare_references(const std::vector<std::vector<std::string>>& refs) const {
  const std::size_t n = refs.empty() ? 0 : refs[0].size();
  std::vector<PreparedReference> out(n);
  const std::size_t workers = std::max<std::size_t>(1, std::min<std::size_t>(std::thread::hardware_concurrency(), 8));
  std::vector<std::thread> pool;
  for (std::size_t w = 0; w < workers; ++w)
    pool.emplace_back([&, w]() { prepare_range(refs, out, w * n / workers, (w + 1) * n / workers); });
  for (auto& t : pool) t.join();
  return out;
}

void Bleu::prepare_range(const std::vector<std::vector<std::string>>& refs, std::vector<PreparedReference>& out,
                         std::size_t begin, std::size_t end) const {
  std::vector<std::string> tokenised(refs.size());
  std::vector<std::vector<std::string_view>> tokens(refs.size());
  for (std::size_t i = begin; i < end; ++i) {
    PreparedReference& p = out[i];
    std::size_t total_tokens = 0;
    for (std::size_t r = 0; r < refs.size(); ++r) {
      tokenised[r] = preprocess(refs[r][i]);
      tokens[r] = split_views(tokenised[r]);
      p.lengths.push_back(static_cast<int64_t>(tokens[r].size()));
      total_tokens += tokens[r].size();
    }
    // the index is sized for every token being distinct: it never grows
    std::size_t vocab_size = 16;
    while (vocab_size < 2 * total_tokens) vocab_size *= 2;
    p.vocab_slots.assign(vocab_size, 0);
    for (const auto& ref_tokens : tokens)
      for (std::string_view t : ref_tokens) p.add_token(t);
    if (p.vocab_spans.size() >= kMaxLocalTokens)
      throw std::invalid_argument("segment " + std::to_string(i + 1) + " has too many distinct reference tokens");
    for (std::size_t r = 0; r < refs.size(); ++r) {
      auto counts = count_keys(local_ids(tokens[r], p));  // NOLINT(performance)
      if (r == 0) {
        p.max_counts = std::move(counts);
        continue;
      }
      std::vector<std::pair<uint64_t, int64_t>> merged;  // element-wise max of two sorted lists
      std::size_t a = 0, b = 0;
      while (a < p.max_counts.size() || b < counts.size()) {
        if (b == counts.size() || (a < p.max_counts.size() && p.max_counts[a].first < counts[b].first)) merged.push_back(p.max_counts[a++]);
        else if (a == p.max_counts.size() || counts[b].first < p.max_counts[a].first) merged.push_back(counts[b++]);
        else merged.emplace_back(counts[b].first, std::max(counts[b].second, p.max_counts[a].second)), ++a, ++b;
      }
      p.max_counts = std::move(merged);
    }
    std::size_t size = 16;
    while (size < 2 * p.max_counts.size()) size *= 2;
    p.slots.assign(size, -1);
    for (std::size_t j = 0; j < p.max_counts.size(); ++j) {
      std::size_t s = mix(p.max_counts[j].first) & (size - 1);
      while (p.slots[s] >= 0) s = (s + 1) & (size - 1);
      p.slots[s] = static_cast<int32_t>(j);
    }
  }
}

uint64_t PreparedReference::token_id(std::string_view t) const {
  const uint64_t h = string_hash(t);
  const std::size_t mask = vocab_slots.size() - 1;
  for (std::size_t s = h & mask;; s = (s + 1) & mask) {
    const uint64_t slot = vocab_slots[s];
    if (slot == 0) return kUnknownToken;
    const std::size_t id = (slot & 0xffffffffULL) - 1;
    if ((slot >> 32) == (h >> 32) && token(id) == t) return id;
  }
}

uint64_t PreparedReference::add_token(std::string_view t) {
  const uint64_t h = string_hash(t);
  const std::size_t mask = vocab_slots.size() - 1;
  for (std::size_t s = h & mask;; s = (s + 1) & mask) {
    const uint64_t slot = vocab_slots[s];
    if (slot == 0) {
      const std::size_t id = vocab_spans.size();
      vocab_spans.emplace_back(static_cast<uint32_t>(vocab_text.size()), static_cast<uint32_t>(t.size()));
      vocab_text.append(t);
      vocab_slots[s] = (h & 0xffffffff00000000ULL) | (id + 1);
      return id;
    }
    const std::size_t id = (slot & 0xffffffffULL) - 1;
    if ((slot >> 32) == (h >> 32) && token(id) == t) return id;
  }
}

int32_t PreparedReference::find(uint64_t key) const {
  const std::size_t mask = slots.size() - 1;
  for (std::size_t s = mix(key) & mask;; s = (s + 1) & mask) {
    int32_t j = slots[s];
    if (j < 0 || max_counts[static_cast<std::size_t>(j)].first == key) return j;
  }
}

BleuStats Bleu::segment_stats(const std::string& hyp_raw, const PreparedReference& ref) const {
  BleuStats s;
  const std::string tokenised = preprocess(hyp_raw);
  auto tokens = split_views(tokenised);
  s.sys_len = static_cast<int64_t>(tokens.size());
  for (int n = 1; n <= BleuOptions::kMaxOrder; ++n) s.total[n - 1] = std::max<int64_t>(0, s.sys_len - n + 1);
  int64_t closest_diff = -1, closest = -1;
  for (int64_t len : ref.lengths) {
    int64_t diff = std::llabs(s.sys_len - len);
    if (closest_diff == -1 || diff < closest_diff) closest_diff = diff, closest = len;
    else if (diff == closest_diff && len < closest) closest = len;
  }
  s.ref_len = closest;
  // clipped matches: each reference n-gram can be matched at most its (maximum) count of times,
  // which sums to min(hyp count, ref count) per n-gram without sorting the hypothesis
  const auto ids = local_ids(tokens, ref);
  thread_local std::vector<int64_t> used;
  thread_local std::vector<int32_t> touched;
  if (used.size() < ref.max_counts.size()) used.resize(ref.max_counts.size(), 0);
  // By start position, orders 1..4: an n-gram whose (n-1)-gram prefix is not in the references
  // cannot be either, so the longer ones are not looked up (most probes were such misses). The
  // clipped totals do not depend on the order in which n-gram occurrences are counted.
  for (std::size_t i = 0; i < ids.size(); ++i)
    for (int n = 1; n <= BleuOptions::kMaxOrder && i + n <= ids.size(); ++n) {
      if (ids[i + n - 1] == kUnknownId) break;
      const int32_t j = ref.find(pack(ids, i, n));
      if (j < 0) break;
      if (used[static_cast<std::size_t>(j)] == 0) touched.push_back(j);
      if (used[static_cast<std::size_t>(j)] < ref.max_counts[static_cast<std::size_t>(j)].second) {
        ++used[static_cast<std::size_t>(j)];
        ++s.correct[n - 1];
      }
    }
  for (int32_t j : touched) used[static_cast<std::size_t>(j)] = 0;
  touched.clear();
  return s;
}

std::vector<BleuStats> Bleu::corpus_stats(const std::vector<std::string>& hyps, const std::vector<PreparedReference>& refs) const {
  std::vector<BleuStats> out;
  out.reserve(hyps.size());
  for (std::size_t i = 0; i < hyps.size(); ++i) out.push_back(segment_stats(hyps[i], refs.at(i)));
  return out;
}

BleuStats Bleu::segment_stats(const std::string& hyp_raw, const std::vector<std::string>& refs) const {
  NgramCounts ref_max;
  std::vector<int64_t> ref_lens;
  for (const auto& r : refs) {
    NgramCounts c;
    ref_lens.push_back(extract_ngrams(preprocess(r), c));
    for (const auto& [k, v] : c) {
      int64_t& m = ref_max[k];
      m = std::max(m, v);
    }
  }
  NgramCounts hyp;
  BleuStats s;
  s.sys_len = extract_ngrams(preprocess(hyp_raw), hyp);
  int64_t closest_diff = -1, closest = -1;
  for (int64_t len : ref_lens) {
    int64_t diff = std::llabs(s.sys_len - len);
    if (closest_diff == -1 || diff < closest_diff) {
      closest_diff = diff;
      closest = len;
    } else if (diff == closest_diff && len < closest) {
      closest = len;
    }
  }
  s.ref_len = closest;
  for (const auto& [ngram, count] : hyp) {
    int n = static_cast<int>(std::count(ngram.begin(), ngram.end(), ' '));
    s.total[n] += count;
    auto it = ref_max.find(ngram);
    if (it != ref_max.end()) s.correct[n] += std::min(count, it->second);
  }
  return s;
}

std::vector<BleuStats> Bleu::corpus_stats(const std::vector<std::string>& hyps,
                                          const std::vector<std::vector<std::string>>& refs) const {
  return corpus_stats(hyps, prepare_references(refs));
}


template <class Real>
BleuResult Bleu::score_impl(const BleuStats& total_stats) const {
  BleuResult r;
  r.stats = total_stats;
  const auto sys_len = static_cast<double>(total_stats.sys_len), ref_len = static_cast<double>(total_stats.ref_len);
  r.bp = 1.0;
  if (sys_len < ref_len) r.bp = sys_len > 0 ? std::exp(1 - ref_len / sys_len) : 0.0;
  for (int n = 0; n < BleuOptions::kMaxOrder; ++n) {
    r.reported_counts[n] = static_cast<double>(total_stats.correct[n]);
    r.reported_totals[n] = static_cast<double>(total_stats.total[n]);
  }
  bool any = false;
  for (auto c : total_stats.correct) any = any || c != 0;
  if (!any) return r;
  std::array<Real, BleuOptions::kMaxOrder> correct{}, total{};
  for (int n = 0; n < BleuOptions::kMaxOrder; ++n) {
    correct[n] = static_cast<Real>(total_stats.correct[n]);
    total[n] = static_cast<Real>(total_stats.total[n]);
  }
  double smooth_mteval = 1.0;
  int eff_order = BleuOptions::kMaxOrder;
  for (int n = 1; n <= BleuOptions::kMaxOrder; ++n) {
    if (options_.smooth == "add-k" && n > 1) {
      correct[n - 1] += static_cast<Real>(options_.smooth_value);
      total[n - 1] += static_cast<Real>(options_.smooth_value);
      r.reported_counts[n - 1] += options_.smooth_value;
      r.reported_totals[n - 1] += options_.smooth_value;
    }
    if (total[n - 1] == 0) break;
    if (options_.effective_order) eff_order = n;
    if (correct[n - 1] == 0) {
      if (options_.smooth == "exp") {
        smooth_mteval *= 2;
        r.precisions[n - 1] = static_cast<Real>(Real(100) / (static_cast<Real>(smooth_mteval) * total[n - 1]));
      } else if (options_.smooth == "floor") {
        r.precisions[n - 1] = static_cast<Real>(static_cast<Real>(100.0 * options_.smooth_value) / total[n - 1]);
      }
    } else {
      r.precisions[n - 1] = static_cast<Real>(Real(100) * correct[n - 1] / total[n - 1]);
    }
  }
  double log_sum = 0;
  for (int n = 0; n < eff_order; ++n) log_sum += r.precisions[n] == 0 ? -9999999999.0 : std::log(r.precisions[n]);
  r.score = r.bp * std::exp(log_sum / eff_order);
  return r;
}

template BleuResult Bleu::score_impl<double>(const BleuStats&) const;
template BleuResult Bleu::score_impl<float>(const BleuStats&) const;

BleuResult Bleu::corpus_score(const std::vector<std::string>& hyps, const std::vector<std::vector<std::string>>& refs) const {
  BleuStats total;
  for (const auto& s : corpus_stats(hyps, refs)) total += s;
  return score(total);
}

std::string Bleu::signature(std::size_t num_refs) const {
  std::string sig = "nrefs:" + std::to_string(num_refs) + "|case:" + (options_.lowercase ? "lc" : "mixed") +
                    "|eff:" + (options_.effective_order ? "yes" : "no") + "|tok:" + options_.tokenize +
                    "|smooth:" + options_.smooth;
  if (options_.smooth == "floor" || options_.smooth == "add-k") {
    char buf[32];
    std::snprintf(buf, sizeof buf, "[%.2f]", options_.smooth_value);
    sig += buf;
  }
  return sig + "|version:synmt-" SYNMT_VERSION;
}

}  // namespace synmt::eval
