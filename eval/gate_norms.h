#pragma once
// SA-NMT's gate analysis (Tran & Bisk §6): z_t = ||sigmoid(W_g h_t)||_2 for every target piece,
// dumped per sentence in HDF5 (`synmt-gate-norms-1`):
//   norms float32 (all pieces, concatenated), norm_offsets int64 (sentences + 1),
//   spans int32 pairs [first, last] piece of each target word, span_offsets int64 (sentences + 1).
// gate_pos_histogram counts, per sentence, the UPOS (from CoNLL-U of the same target sentences) of
// the word that holds the sentence's highest z_t.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "eval/conllu.h"

namespace synmt::eval {

inline constexpr const char* kGateNormsFormat = "synmt-gate-norms-1";

struct SentenceGateNorms {
  std::vector<double> norms;                // one per target piece
  std::vector<std::pair<int, int>> spans;   // per word
};

void write_gate_norms(const std::string& path, const std::vector<SentenceGateNorms>& sentences);
std::vector<SentenceGateNorms> read_gate_norms(const std::string& path);
// The per-target-step tensor `tensor` (axes "tgt": one value per target piece plus </s>) of a
// teacher-forced analysis dump, with each sentence's word spans (the pieces of each target word,
// from the same split's sub-word text); the </s> step is dropped. Throws InputError naming the
// dump and the sentence when the piece counts differ.
std::vector<SentenceGateNorms> gate_norms_from_analysis(const std::string& path, const std::string& tensor,
                                                        const std::vector<std::vector<std::pair<int, int>>>& target_spans);

// §6's other reading of its Eq. 17 (z_t from h_{t-1}, "when the model is about to predict y_t"):
// with the decoder's steps indexed as in the paper's §3 the gate of h_{t-1} is the one the step
// that predicted y_{t-1} used, so each piece takes the norm of the step before it. A sentence's
// first piece then has none (-infinity: never the peak), and the last step's norm (it predicted
// the last piece) would belong to </s>, which the count leaves out.
std::vector<SentenceGateNorms> norms_of_the_previous_step(std::vector<SentenceGateNorms> gates);

// Throws InputError naming conllu_path and the sentence when word counts differ; a sentence with
// no finite norm (one piece, under norms_of_the_previous_step) has no peak and is not counted.
std::map<std::string, long> gate_pos_histogram(const std::vector<SentenceGateNorms>& gates,
                                               const std::vector<ConlluSentence>& target, const std::string& conllu_path);

// What the peak count of gate_pos_histogram would be by chance, from the target side alone (no
// model): per UPOS, the number of sub-word pieces (a peak on a random piece: a word split into many
// pieces has more chances), of words (a peak on a random word), and of sentences whose first word
// has that tag (a peak always on the first word, where a decoder's first step, read from <s>,
// can hold it). Sentences with no words are skipped, as in gate_pos_histogram. Throws InputError
// naming conllu_path and the sentence when word counts differ.
struct GatePosChance {
  std::map<std::string, long> pieces, words, first_word;
  long sentences = 0;
};
GatePosChance gate_pos_chance(const std::vector<std::vector<std::pair<int, int>>>& target_spans,
                              const std::vector<ConlluSentence>& target, const std::string& conllu_path);

}  // namespace synmt::eval
