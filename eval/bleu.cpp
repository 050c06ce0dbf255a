#include "eval/bleu.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <unordered_map>

#include <unicode/uchar.h>

#include "core/utf8.h"
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

namespace {
// Python's str.split() + ' '.join(): collapse Unicode whitespace runs, trim.
std::vector<std::string> python_split(const std::string& s) {
  std::vector<std::string> words;
  std::string cur;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t start = i;
    char32_t c = utf8::next(s, i);
    if (utf8::is_python_space(c)) {
      if (!cur.empty()) words.push_back(std::move(cur));
      cur.clear();
    } else {
      cur.append(s, start, i - start);
    }
  }
  if (!cur.empty()) words.push_back(std::move(cur));
  return words;
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
}

bool in_13a_punct(unsigned char c) {  // [\{-\~\[-\` -\&\(-\+\:-\@\/]
  return (c >= 0x7B && c <= 0x7E) || (c >= 0x5B && c <= 0x60) || (c >= 0x20 && c <= 0x26) ||
         (c >= 0x28 && c <= 0x2B) || (c >= 0x3A && c <= 0x40) || c == 0x2F;
}
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

// The regex substitutions of sacreBLEU's TokenizerRegexp, each a left-to-right, non-overlapping scan.
// All patterns are ASCII, and a multi-byte UTF-8 character never matches [0-9] or the punctuation
// class, so scanning bytes gives the same result as scanning code points (a [^0-9] group may be
// the last byte of a multi-byte character, which is copied unchanged either way).
std::string regexp_tokenize(const std::string& in) {
  std::string a;
  a.reserve(in.size() * 2);
  for (unsigned char c : in) {
    if (in_13a_punct(c)) {
      a.push_back(' ');
      a.push_back(static_cast<char>(c));
      a.push_back(' ');
    } else {
      a.push_back(static_cast<char>(c));
    }
  }
  std::string b;  // ([^0-9])([\.,]) -> \1 \2 (space after)
  b.reserve(a.size() * 2);
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (i + 1 < a.size() && !is_digit(a[i]) && (a[i + 1] == '.' || a[i + 1] == ',')) {
      b.push_back(a[i]);
      b.push_back(' ');
      b.push_back(a[i + 1]);
      b.push_back(' ');
      ++i;
    } else {
      b.push_back(a[i]);
    }
  }
  std::string c;  // ([\.,])([^0-9]) -> " \1 \2"
  c.reserve(b.size() * 2);
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (i + 1 < b.size() && (b[i] == '.' || b[i] == ',') && !is_digit(b[i + 1])) {
      c.push_back(' ');
      c.push_back(b[i]);
      c.push_back(' ');
      // the second group is a whole character: copy all of its bytes
      std::size_t j = i + 1;
      c.push_back(b[j]);
      if (static_cast<unsigned char>(b[j]) >= 0xC0)
        while (j + 1 < b.size() && (static_cast<unsigned char>(b[j + 1]) & 0xC0) == 0x80) c.push_back(b[++j]);
      i = j;
    } else {
      c.push_back(b[i]);
    }
  }
  std::string d;  // ([0-9])(-) -> "\1 \2 "
  d.reserve(c.size() * 2);
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (i + 1 < c.size() && is_digit(c[i]) && c[i + 1] == '-') {
      d.push_back(c[i]);
      d += " - ";
      ++i;
    } else {
      d.push_back(c[i]);
    }
  }
  std::string out;
  for (const auto& w : python_split(d)) {
    if (!out.empty()) out.push_back(' ');
    out += w;
  }
  return out;
}
}  // namespace

std::string tokenize_13a(const std::string& line_in) {
  std::string line = line_in;
  replace_all(line, "<skipped>", "");
  replace_all(line, "-\n", "");
  replace_all(line, "\n", " ");
  if (line.find('&') != std::string::npos) {
    replace_all(line, "&quot;", "\"");
    replace_all(line, "&amp;", "&");
    replace_all(line, "&lt;", "<");
    replace_all(line, "&gt;", ">");
  }
  return regexp_tokenize(" " + line + " ");
}

Bleu::Bleu(BleuOptions options) : options_(std::move(options)) {
  if (options_.tokenize != "13a" && options_.tokenize != "none")
    throw std::invalid_argument("unknown BLEU tokenizer '" + options_.tokenize + "' (have: 13a, none)");
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
  if (options_.tokenize == "13a") return tokenize_13a(line);
  std::string out;
  for (const auto& w : python_split(line)) {
    if (!out.empty()) out.push_back(' ');
    out += w;
  }
  return out;
}

namespace {
using NgramCounts = std::unordered_map<std::string, int64_t>;
int64_t extract_ngrams(const std::string& line, NgramCounts& counts) {
  std::vector<std::string> tokens = python_split(line);
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
