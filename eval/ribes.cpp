#include "eval/ribes.h"

#include <unicode/uchar.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "core/utf8.h"
#include "eval/bleu_tokenizers.h"
#include "synmt/version.h"

namespace synmt::eval {

std::vector<std::string> ribes_words(const std::string& line, bool case_sensitive) {
  std::vector<std::string> words;
  std::string cur;
  for (std::size_t i = 0; i < line.size();) {
    char32_t c = utf8::next(line, i);
    if (utf8::is_python_space(c)) {
      if (!cur.empty()) words.push_back(std::move(cur));
      cur.clear();
      continue;
    }
    if (!case_sensitive) c = static_cast<char32_t>(u_tolower(static_cast<UChar32>(c)));
    utf8::append(cur, c);
  }
  if (!cur.empty()) words.push_back(std::move(cur));
  return words;
}

namespace {
// Overlapping occurrences of ngram = seq[start, start+len) in `in`; first position via `first`.
int count_overlapping(const std::vector<int>& in, const std::vector<int>& seq, std::size_t start, std::size_t len,
                      std::size_t* first) {
  int count = 0;
  for (std::size_t p = 0; p + len <= in.size(); ++p) {
    bool match = true;
    for (std::size_t k = 0; k < len && match; ++k) match = in[p + k] == seq[start + k];
    if (match) {
      if (count == 0 && first != nullptr) *first = p;
      ++count;
    }
  }
  return count;
}
}  // namespace

std::optional<KendallResult> ribes_kendall(const std::vector<std::string>& ref_words,
                                           const std::vector<std::string>& hyp_words, bool allow_empty_reference) {
  if (ref_words.empty()) {
    if (allow_empty_reference) return std::nullopt;
    throw std::invalid_argument("Reference has no words");
  }
  if (hyp_words.empty()) return KendallResult{0.0, 0.0, 0.0};
  KendallResult r;
  r.bp = std::min(1.0, std::exp(1.0 - 1.0 * static_cast<double>(ref_words.size()) / static_cast<double>(hyp_words.size())));
  std::unordered_map<std::string, int> ids;
  auto id_of = [&](const std::string& w) { return ids.emplace(w, static_cast<int>(ids.size())).first->second; };
  std::vector<int> ref, hyp;
  for (const auto& w : ref_words) ref.push_back(id_of(w));
  for (const auto& w : hyp_words) hyp.push_back(id_of(w));
  std::vector<int> intlist;
  const std::size_t H = hyp.size();
  for (std::size_t i = 0; i < H; ++i) {
    std::size_t pos = 0;
    int in_ref = count_overlapping(ref, hyp, i, 1, &pos);
    if (in_ref == 0) continue;
    if (in_ref == 1 && count_overlapping(hyp, hyp, i, 1, nullptr) == 1) {
      intlist.push_back(static_cast<int>(pos));
      continue;
    }
    const std::size_t max_window = std::max(i + 1, H - i + 1);
    for (std::size_t window = 1; window < max_window; ++window) {
      if (window <= i) {  // left context hyp[i-window .. i]
        std::size_t start = i - window, len = window + 1;
        if (count_overlapping(ref, hyp, start, len, &pos) == 1 && count_overlapping(hyp, hyp, start, len, nullptr) == 1) {
          intlist.push_back(static_cast<int>(pos + len - 1));
          break;
        }
      }
      if (i + window < H) {  // right context hyp[i .. i+window]
        std::size_t len = window + 1;
        if (count_overlapping(ref, hyp, i, len, &pos) == 1 && count_overlapping(hyp, hyp, i, len, nullptr) == 1) {
          intlist.push_back(static_cast<int>(pos));
          break;
        }
      }
    }
  }
  const std::size_t n = intlist.size();
  if (n == 1 && ref.size() == 1) return KendallResult{1.0, 1.0 / static_cast<double>(H), r.bp};
  if (n < 2) return KendallResult{0.0, 0.0, r.bp};
  double ascending = 0.0;
  for (std::size_t a = 0; a + 1 < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b)
      if (intlist[a] < intlist[b]) ascending += 1;
  r.nkt = ascending / ((static_cast<double>(n) * static_cast<double>(n - 1)) / 2);
  r.precision = 1.0 * static_cast<double>(n) / static_cast<double>(H);
  return r;
}

Ribes::Ribes(RibesOptions options) : options_(std::move(options)) {
  // "none" only normalises whitespace, which RIBES.py's split does anyway
  if (options_.tokenize != "none")
    segment_ = make_bleu_tokenizer(options_.tokenize, options_.mecab_dicdir, /*only_split=*/true);
}

std::vector<std::optional<double>> Ribes::sentence_scores(const std::vector<std::string>& hyps,
                                                          const std::vector<std::vector<std::string>>& refs) const {
  std::vector<std::optional<double>> out;
  for (std::size_t i = 0; i < hyps.size(); ++i) {
    auto words = [this](const std::string& line) {
      return ribes_words(segment_ ? segment_(line) : line, options_.case_sensitive);
    };
    auto hyp = words(hyps[i]);
    double best = -1.0;
    for (const auto& ref_set : refs) {
      auto k = ribes_kendall(words(ref_set.at(i)), hyp, options_.allow_empty_reference);
      if (!k) continue;
      double s = k->nkt * std::pow(k->precision, options_.alpha) * std::pow(k->bp, options_.beta);
      if (s > best) best = s;
    }
    out.push_back(best > -1.0 ? std::optional<double>(best) : std::nullopt);
  }
  return out;
}

double Ribes::corpus_score(const std::vector<std::string>& hyps, const std::vector<std::vector<std::string>>& refs) const {
  double acc = 0;
  std::size_t valid = 0;
  for (const auto& s : sentence_scores(hyps, refs)) {
    if (!s) continue;
    acc += *s;
    ++valid;
  }
  if (valid == 0) throw std::invalid_argument("no sentence has a non-empty reference");
  return acc / static_cast<double>(valid);
}

std::string Ribes::signature(std::size_t num_refs) const {
  char buf[200];
  // tok appears only when the text was segmented first, so the signatures of unsegmented scores
  // stay RIBES.py's settings alone
  const std::string tok = options_.tokenize == "none" ? "" : "|tok:" + options_.tokenize;
  std::snprintf(buf, sizeof buf, "nrefs:%zu|case:%s%s|alpha:%.2f|beta:%.2f|ribes:1.03.1|version:synmt-%s", num_refs,
                options_.case_sensitive ? "mixed" : "lc", tok.c_str(), options_.alpha, options_.beta, SYNMT_VERSION);
  return buf;
}

}  // namespace synmt::eval
