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

// Throws InputError naming conllu_path and the sentence when word counts differ.
std::map<std::string, long> gate_pos_histogram(const std::vector<SentenceGateNorms>& gates,
                                               const std::vector<ConlluSentence>& target, const std::string& conllu_path);

}  // namespace synmt::eval
