#include "eval/attachment.h"

#include <cmath>
#include <map>
#include <random>
#include <tuple>
#include <stdexcept>

#include "core/error.h"
#include "core/utf8.h"
#include "eval/mean_sd.h"
#include "eval/trees.h"

namespace synmt::eval {
namespace {
std::string universal(const std::string& deprel) { return deprel.substr(0, deprel.find(':')); }

std::size_t chars_without_space(const std::string& s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size();)
    if (!utf8::is_python_space(utf8::next(s, i))) ++n;
  return n;
}

// Character span of every word: words of a multiword token get the token's span and their index
// inside it, so that they align when both files split the token the same way.
struct Span {
  std::size_t begin, end;
  int sub;
  bool operator<(const Span& o) const { return std::tie(begin, end, sub) < std::tie(o.begin, o.end, o.sub); }
};

std::vector<std::vector<Span>> spans(const std::vector<ConlluSentence>& doc) {
  std::vector<std::vector<Span>> out;
  std::size_t offset = 0;
  for (const auto& s : doc) {
    std::vector<std::size_t> token_begin(s.token_forms.size()), token_end(s.token_forms.size());
    for (std::size_t t = 0; t < s.token_forms.size(); ++t) {
      token_begin[t] = offset;
      offset += chars_without_space(s.token_forms[t]);
      token_end[t] = offset;
    }
    std::vector<Span> sp;
    int sub = 0, last_token = -1;
    for (const auto& w : s.words) {
      sub = w.token == last_token ? sub + 1 : 0;
      last_token = w.token;
      sp.push_back({token_begin[w.token], token_end[w.token], sub});
    }
    out.push_back(std::move(sp));
  }
  return out;
}
// One sentence's counts on a shared tokenisation.
struct SentenceCounts {
  long uas = 0, las = 0, scored = 0, directed = 0, undirected = 0;
};

SentenceCounts sentence_counts(const std::vector<ConlluWord>& g, const std::vector<ConlluWord>& p, bool include_punct) {
  SentenceCounts c;
  for (std::size_t k = 0; k < g.size(); ++k) {
    bool head_ok = g[k].head == p[k].head;
    c.uas += head_ok;
    c.las += head_ok && universal(g[k].deprel) == universal(p[k].deprel);
    if (!include_punct && g[k].upos == "PUNCT") continue;
    ++c.scored;
    c.directed += head_ok;
    // undirected: the predicted arc (head, k) is a gold arc in either direction
    int h = p[k].head, d = static_cast<int>(k) + 1;
    bool reversed = h > 0 && g[h - 1].head == d;
    c.undirected += head_ok || reversed;
  }
  return c;
}

bool same_words(const ConlluSentence& g, const ConlluSentence& p) {
  if (g.words.size() != p.words.size()) return false;
  for (std::size_t k = 0; k < g.words.size(); ++k)
    if (g.words[k].form != p.words[k].form) return false;
  return true;
}
}  // namespace

SegmentStats attachment_rows(const std::vector<ConlluSentence>& gold, const std::vector<ConlluSentence>& system,
                             const std::string& system_path, bool include_punct) {
  if (gold.size() != system.size())
    throw InputError(system_path, 0, "has " + std::to_string(system.size()) + " sentences, the gold trees " + std::to_string(gold.size()));
  SegmentStats rows;
  for (std::size_t i = 0; i < gold.size(); ++i) {
    if (!same_words(gold[i], system[i]))
      throw InputError(system_path, 0, "sentence " + std::to_string(i + 1) +
                                           " has other words than the gold tree's (a paired test needs the gold tokenisation)");
    const SentenceCounts c = sentence_counts(gold[i].words, system[i].words, include_punct);
    rows.push_back({double(c.directed), double(c.undirected), double(c.scored)});
  }
  return rows;
}

double attachment_from_rows(const std::vector<double>& summed, bool directed) {
  return summed[2] > 0 ? 100.0 * summed[directed ? 0 : 1] / summed[2] : 0.0;
}

AttachmentScores attachment_scores(const std::vector<ConlluSentence>& gold, const std::vector<ConlluSentence>& system,
                                   bool include_punct) {
  AttachmentScores r;
  bool same = gold.size() == system.size();
  for (std::size_t i = 0; same && i < gold.size(); ++i) same = same_words(gold[i], system[i]);
  r.same_tokenisation = same;
  long da_total = 0, da_correct = 0, ua_correct = 0, uas_correct = 0, las_correct = 0;
  for (const auto& s : gold) r.gold_words += static_cast<long>(s.words.size());
  for (const auto& s : system) r.system_words += static_cast<long>(s.words.size());
  if (same) {
    for (std::size_t i = 0; i < gold.size(); ++i) {
      const SentenceCounts c = sentence_counts(gold[i].words, system[i].words, include_punct);
      uas_correct += c.uas;
      las_correct += c.las;
      da_total += c.scored;
      da_correct += c.directed;
      ua_correct += c.undirected;
    }
    r.aligned_words = r.gold_words;
    r.uas = 100.0 * uas_correct / r.gold_words;
    r.las = 100.0 * las_correct / r.gold_words;
    r.da = da_total ? 100.0 * da_correct / da_total : 0.0;
    r.ua = da_total ? 100.0 * ua_correct / da_total : 0.0;
    return r;
  }
  // Different tokenisations: align by character spans over the whole document.
  auto gs = spans(gold), ss = spans(system);
  std::map<Span, std::pair<std::size_t, std::size_t>> gold_at;
  for (std::size_t i = 0; i < gold.size(); ++i)
    for (std::size_t k = 0; k < gs[i].size(); ++k) gold_at[gs[i][k]] = {i, k};
  auto aligned_gold = [&](std::size_t i, int word) -> const std::pair<std::size_t, std::size_t>* {
    auto it = gold_at.find(ss[i][static_cast<std::size_t>(word)]);
    return it == gold_at.end() ? nullptr : &it->second;
  };
  for (std::size_t i = 0; i < system.size(); ++i) {
    for (std::size_t k = 0; k < system[i].words.size(); ++k) {
      const auto* ga = aligned_gold(i, static_cast<int>(k));
      if (ga == nullptr) continue;
      ++r.aligned_words;
      const auto& gw = gold[ga->first].words[ga->second];
      const auto& sw = system[i].words[k];
      bool head_ok;
      if (sw.head == 0 || gw.head == 0) {
        head_ok = sw.head == 0 && gw.head == 0;
      } else {
        const auto* gh = aligned_gold(i, sw.head - 1);
        head_ok = gh != nullptr && gh->first == ga->first && static_cast<int>(gh->second) + 1 == gw.head;
      }
      uas_correct += head_ok;
      las_correct += head_ok && universal(gw.deprel) == universal(sw.deprel);
      if (!include_punct && gw.upos == "PUNCT") continue;
      ++da_total;
      da_correct += head_ok;
    }
  }
  auto f1 = [&](long correct) {
    double p = r.system_words ? static_cast<double>(correct) / r.system_words : 0, rc = r.gold_words ? static_cast<double>(correct) / r.gold_words : 0;
    return p + rc > 0 ? 100.0 * 2 * p * rc / (p + rc) : 0.0;
  };
  r.uas = f1(uas_correct);
  r.las = f1(las_correct);
  r.da = da_total ? 100.0 * da_correct / da_total : 0.0;
  r.ua = r.da;  // undirected matching needs a shared tokenisation; reported equal to DA otherwise
  return r;
}

ChanceAttachment chance_attachment(const std::vector<ConlluSentence>& gold, int draws, std::uint64_t seed, bool projective,
                                   bool include_punct_in_da) {
  if (draws < 2) throw std::invalid_argument("chance_attachment: at least 2 draws (an sd over draws)");
  std::mt19937_64 rng(seed);
  MeanSd da, ua;
  for (int draw = 0; draw < draws; ++draw) {
    auto sys = gold;
    for (auto& s : sys) {
      auto h = random_tree(static_cast<int>(s.words.size()), rng, projective);
      for (std::size_t k = 0; k < s.words.size(); ++k) s.words[k].head = h[k + 1];
    }
    auto r = attachment_scores(gold, sys, include_punct_in_da);
    da.add(r.da);
    ua.add(r.ua);
  }
  return ChanceAttachment{da.mean(), ua.mean(), da.sd(), ua.sd()};
}

}  // namespace synmt::eval
