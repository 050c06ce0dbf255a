#pragma once
// Soft head scores dumped by a model (SA-NMT's phi, LGP's head logits, Bastings' graphs), one
// matrix per sentence at sub-word level with the sub-word spans of each word, in HDF5:
//   scores        float32, every sentence's n x n matrix row-major, concatenated
//                 (phi[i][j]: piece i heads piece j; the diagonal holds root scores)
//   score_offsets int64 (sentences + 1): start of each matrix in `scores`
//   spans         int32 pairs [first, last] piece of each word, concatenated
//   span_offsets  int64 (sentences + 1): start (in pairs) of each sentence's spans
//   attribute format = "synmt-head-scores-1"
// Readers check the layout (matrix sizes, spans inside the sentence, contiguous and complete) and
// refuse NaN/inf, naming the file and sentence.
#include <string>
#include <utility>
#include <vector>

#include "eval/trees.h"

namespace synmt::eval {

inline constexpr const char* kHeadScoresFormat = "synmt-head-scores-1";

struct SentenceHeadScores {
  ScoreMatrix pieces;                      // n x n
  std::vector<std::pair<int, int>> spans;  // per word, 0-based piece indices
};

void write_head_scores(const std::string& path, const std::vector<SentenceHeadScores>& sentences);
std::vector<SentenceHeadScores> read_head_scores(const std::string& path);

// Which way a dumped matrix reads: kHeadsRows = row i, column j scores piece i heading piece j (the
// head-score convention, e.g. SA-NMT's phi); kDependentRows = row i is piece i's distribution over
// its heads (self-attention: query i attends to key j), transposed on reading.
enum class MatrixRows { kHeadsRows, kDependentRows };

// The sub-word head scores of one tensor of a teacher-forced analysis dump (synmt-analysis-1,
// written by synmt-translate --teacher-forced --dump): a (src src) tensor, or one head of a
// (heads src src) tensor; word spans from the dump's word_spans. Same checks as read_head_scores.
// word_spans false: the pieces only (spans left empty), e.g. statistics of a latent graph over tokens.
std::vector<SentenceHeadScores> read_head_scores_from_analysis(const std::string& path, const std::string& tensor, int head,
                                                               MatrixRows rows, bool word_spans = true);

}  // namespace synmt::eval
