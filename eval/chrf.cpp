#include "eval/chrf.h"

#include <unicode/uchar.h>

#include <unordered_map>

#include "core/utf8.h"
#include "synmt/version.h"

namespace synmt::eval {
namespace {
using Counts = std::unordered_map<std::u32string, int64_t>;

bool is_punct(char32_t c) {  // string.punctuation
  return c < 128 && std::u32string_view(U"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~").find(c) != std::u32string_view::npos;
}

// sacreBLEU's _remove_punctuation: one leading or trailing ASCII punctuation mark split off.
std::vector<std::u32string> punct_split_words(const std::u32string& s) {
  std::vector<std::u32string> out;
  for (auto& w : utf8::split_python_whitespace(s)) {
    if (w.size() == 1) {
      out.push_back(w);
    } else if (is_punct(w.back())) {
      out.push_back(w.substr(0, w.size() - 1));
      out.push_back(w.substr(w.size() - 1));
    } else if (is_punct(w.front())) {
      out.push_back(w.substr(0, 1));
      out.push_back(w.substr(1));
    } else {
      out.push_back(w);
    }
  }
  return out;
}

std::vector<Counts> all_ngrams(const std::u32string& text, const ChrfOptions& o) {
  std::vector<Counts> result;
  std::u32string line;
  if (o.whitespace) {
    line = text;
  } else {
    for (auto& w : utf8::split_python_whitespace(text)) line += w;
  }
  for (int n = 1; n <= o.char_order; ++n) {
    Counts c;
    for (std::size_t i = 0; i + n <= line.size(); ++i) ++c[line.substr(i, n)];
    result.push_back(std::move(c));
  }
  if (o.word_order > 0) {
    auto words = punct_split_words(text);
    for (int n = 1; n <= o.word_order; ++n) {
      Counts c;
      for (std::size_t i = 0; i + n <= words.size(); ++i) {
        std::u32string key = words[i];
        for (int k = 1; k < n; ++k) key += U' ' + words[i + k];
        ++c[key];
      }
      result.push_back(std::move(c));
    }
  }
  return result;
}

std::u32string prepare(const std::string& s, bool lowercase) {
  std::u32string u = utf8::decode(s);
  if (lowercase)
    for (char32_t& c : u) c = static_cast<char32_t>(u_tolower(static_cast<UChar32>(c)));
  return u;
}
}  // namespace

Chrf::Chrf(ChrfOptions options) : options_(options) {}

template <class Real>
double Chrf::score(const ChrfStats& stats) const {
  const Real eps = static_cast<Real>(1e-16);
  const Real factor = static_cast<Real>(options_.beta * options_.beta);
  Real total = 0, avg_prec = 0, avg_rec = 0;
  int effective_order = 0;
  const int order = orders();
  for (int i = 0; i < order; ++i) {
    Real n_hyp = static_cast<Real>(stats[3 * i]), n_ref = static_cast<Real>(stats[3 * i + 1]),
         n_match = static_cast<Real>(stats[3 * i + 2]);
    Real prec = n_hyp > 0 ? n_match / n_hyp : eps;
    Real rec = n_ref > 0 ? n_match / n_ref : eps;
    Real denom = factor * prec + rec;
    total += denom > 0 ? ((1 + factor) * prec * rec / denom) : eps;
    if (n_hyp > 0 && n_ref > 0) {
      avg_prec += prec;
      avg_rec += rec;
      ++effective_order;
    }
  }
  if (options_.eps_smoothing) return static_cast<double>(100 * total / order);
  if (effective_order == 0) {
    avg_prec = avg_rec = 0;
  } else {
    avg_prec /= effective_order;
    avg_rec /= effective_order;
  }
  if (avg_prec + avg_rec != 0) {
    Real s = (1 + factor) * avg_prec * avg_rec;
    s /= (factor * avg_prec) + avg_rec;
    return static_cast<double>(100 * s);
  }
  return 0.0;
}
template double Chrf::score<double>(const ChrfStats&) const;
template double Chrf::score<float>(const ChrfStats&) const;

ChrfStats Chrf::segment_stats(const std::string& hyp, const std::vector<std::string>& refs) const {
  auto hyp_ngrams = all_ngrams(prepare(hyp, options_.lowercase), options_);
  ChrfStats best;
  double best_f = -1.0;
  for (const auto& ref : refs) {
    auto ref_ngrams = all_ngrams(prepare(ref, options_.lowercase), options_);
    ChrfStats stats;
    for (std::size_t n = 0; n < hyp_ngrams.size(); ++n) {
      int64_t match = 0, hyp_count = 0, ref_count = 0;
      for (const auto& [g, c] : hyp_ngrams[n]) {
        hyp_count += c;
        auto it = ref_ngrams[n].find(g);
        if (it != ref_ngrams[n].end()) match += std::min(c, it->second);
      }
      for (const auto& [g, c] : ref_ngrams[n]) ref_count += c;
      stats.push_back(ref_ngrams[n].empty() ? 0.0 : static_cast<double>(hyp_count));
      stats.push_back(static_cast<double>(ref_count));
      stats.push_back(static_cast<double>(match));
    }
    double f = score<double>(stats);
    if (f > best_f) {
      best_f = f;
      best = std::move(stats);
    }
  }
  return best;
}

std::vector<ChrfStats> Chrf::corpus_stats(const std::vector<std::string>& hyps,
                                          const std::vector<std::vector<std::string>>& refs) const {
  std::vector<ChrfStats> out;
  std::vector<std::string> seg_refs(refs.size());
  for (std::size_t i = 0; i < hyps.size(); ++i) {
    for (std::size_t r = 0; r < refs.size(); ++r) seg_refs[r] = refs[r].at(i);
    out.push_back(segment_stats(hyps[i], seg_refs));
  }
  return out;
}

double Chrf::corpus_score(const std::vector<std::string>& hyps, const std::vector<std::vector<std::string>>& refs) const {
  ChrfStats sum(static_cast<std::size_t>(3 * orders()), 0.0);
  for (const auto& s : corpus_stats(hyps, refs))
    for (std::size_t k = 0; k < sum.size(); ++k) sum[k] += s[k];
  return score<double>(sum);
}

std::string Chrf::signature(std::size_t num_refs) const {
  return "nrefs:" + std::to_string(num_refs) + "|case:" + (options_.lowercase ? "lc" : "mixed") +
         "|eff:" + (options_.eps_smoothing ? "no" : "yes") + "|nc:" + std::to_string(options_.char_order) +
         "|nw:" + std::to_string(options_.word_order) + "|space:" + (options_.whitespace ? "yes" : "no") +
         "|version:synmt-" SYNMT_VERSION;
}

}  // namespace synmt::eval
