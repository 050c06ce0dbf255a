#pragma once
// RIBES 1.03.1 (Isozaki et al. 2010; NTT's RIBES.py): per sentence,
//   RIBES = NKT * P^alpha * BP^beta
// with NKT the normalised Kendall's tau of the reference positions of aligned hypothesis words,
// P the unigram precision of aligned words, BP = min(1, exp(1 - |ref|/|hyp|)); the best score over
// references per sentence, the corpus score the mean over sentences. Words are aligned when unique
// in both sentences, otherwise by the shortest context n-gram unique in both, left context tried
// before right (RIBES.py's order; NLTK's ribes_score tries right first, docs/evaluation.md).
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace synmt::eval {

struct RibesOptions {
  double alpha = 0.25;
  double beta = 0.10;
  bool case_sensitive = false;  // RIBES.py lower-cases unless -c
  bool allow_empty_reference = false;  // RIBES.py -z: skip such sentences instead of failing
  // Segmentation applied to hypothesis and reference before RIBES.py's whitespace split: none (as
  // given) or any BLEU tokeniser name. RIBES.py expects segmented text; a language written without
  // spaces (raw Japanese references) must be segmented first, as WAT scores segmented text.
  std::string tokenize = "none";
  std::string mecab_dicdir;  // ja-mecab: IPAdic directory (empty = MeCab's default)
};

struct KendallResult {
  double nkt = 0, precision = 0, bp = 0;
};

// Whitespace-split words as RIBES.py's Corpus reads them (strip, collapse, lower-case).
std::vector<std::string> ribes_words(const std::string& line, bool case_sensitive);
// nullopt: empty reference (allowed only with allow_empty_reference; otherwise throws).
std::optional<KendallResult> ribes_kendall(const std::vector<std::string>& ref, const std::vector<std::string>& hyp,
                                           bool allow_empty_reference);

class Ribes {
 public:
  explicit Ribes(RibesOptions options);
  // Per-sentence best score; nullopt where every reference is empty.
  std::vector<std::optional<double>> sentence_scores(const std::vector<std::string>& hyps,
                                                     const std::vector<std::vector<std::string>>& refs) const;
  double corpus_score(const std::vector<std::string>& hyps, const std::vector<std::vector<std::string>>& refs) const;
  std::string signature(std::size_t num_refs) const;

 private:
  RibesOptions options_;
  std::function<std::string(const std::string&)> segment_;  // empty: the text as given
};

}  // namespace synmt::eval
