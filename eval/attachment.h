#pragma once
// Attachment scores of predicted trees against gold CoNLL-U.
//  - UAS/LAS as conll18_ud_eval.py computes them: punctuation included, LAS on the universal part
//    of DEPREL (before ':'); when the tokenisations differ, words are aligned by their character
//    spans in the whitespace-free text and UAS/LAS are F1 over aligned words.
//  - DA/UA (Tran & Bisk): directed / undirected attachment, punctuation (gold UPOS PUNCT) excluded
//    unless include_punct; undirected counts a predicted arc that matches a gold arc either way.
#include <cstdint>
#include <string>
#include <vector>

#include "eval/conllu.h"
#include "eval/significance.h"

namespace synmt::eval {

struct AttachmentScores {
  double uas = 0, las = 0, da = 0, ua = 0;  // percentages
  long gold_words = 0, system_words = 0, aligned_words = 0;
  bool same_tokenisation = true;
};

AttachmentScores attachment_scores(const std::vector<ConlluSentence>& gold, const std::vector<ConlluSentence>& system,
                                   bool include_punct_in_da = false);

// Per gold sentence, for paired significance tests over sentences (synmt-trees paired-bs): rows
// [directed correct, undirected correct, scored words], punctuation excluded unless
// include_punct; summed over all sentences they give attachment_scores' DA and UA. The trees must
// share the gold tokenisation (induced trees are made on it): an InputError naming `system_path`
// and the sentence otherwise.
SegmentStats attachment_rows(const std::vector<ConlluSentence>& gold, const std::vector<ConlluSentence>& system,
                             const std::string& system_path, bool include_punct = false);
// DA (directed) or UA from summed attachment_rows, in percent.
double attachment_from_rows(const std::vector<double>& summed, bool directed);

// Chance for induced trees: DA/UA of every gold sentence's tree decoded from random scores
// (trees.h random_tree: Chu-Liu-Edmonds, or Eisner when projective), `draws` times from `seed`;
// the mean and the sample sd over the draws.
struct ChanceAttachment {
  double da = 0, ua = 0, da_sd = 0, ua_sd = 0;
};
ChanceAttachment chance_attachment(const std::vector<ConlluSentence>& gold, int draws, std::uint64_t seed, bool projective,
                                   bool include_punct_in_da = false);

}  // namespace synmt::eval
