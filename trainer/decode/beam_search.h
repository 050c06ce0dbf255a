#pragma once
// Batched beam search over any Seq2SeqModel: all sentences of a batch and all their hypotheses
// advance together as one (B*K)-row state. GNMT length penalty ((5+|y|)/6)^alpha, a maximum output
// length of a*|x|+b, and n-best lists. Beam size 1 is exactly greedy search.
#include <cstdint>
#include <vector>

#include "trainer/data/batches.h"
#include "trainer/models/seq2seq_model.h"

namespace synmt {

struct SearchOptions {
  int beam_size = 5;
  double length_penalty = 1.0;  // alpha; 0 = raw log-probability
  double max_len_a = 1.5;
  int max_len_b = 10;
  int nbest = 1;
};

struct Hypothesis {
  std::vector<int32_t> tokens;  // without </s>
  double log_prob = 0;          // sum of token log-probabilities (with </s>)
  double score = 0;             // log_prob / length penalty
};

std::vector<std::vector<Hypothesis>> beam_search(Seq2SeqModel& model, const Batch& batch, const SearchOptions& options);
std::vector<std::vector<int32_t>> greedy_search(Seq2SeqModel& model, const Batch& batch, const SearchOptions& options);

}  // namespace synmt
