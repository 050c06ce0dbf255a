#include "eval/bleu.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <unordered_map>

#include <unicode/uchar.h>

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
  tokenizer_ = make_bleu_tokenizer(options_.tokenize, options_.mecab_dicdir);
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
  std::vector<BleuStats> out;
  out.reserve(hyps.size());
  std::vector<std::string> seg_refs(refs.size());
  for (std::size_t i = 0; i < hyps.size(); ++i) {
    for (std::size_t r = 0; r < refs.size(); ++r) seg_refs[r] = refs[r].at(i);
    out.push_back(segment_stats(hyps[i], seg_refs));
  }
  return out;
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
