#pragma once
// Batched beam search over any Seq2SeqModel: all sentences of a batch and all their hypotheses
// advance together as one (B*K)-row state. Finished hypotheses are ranked by
// (log p(y|x) + log p(|y| | |x|)) / norm(|y|): norm is the GNMT length penalty ((5+|y|)/6)^alpha,
// fairseq's |y|^alpha (Pascal's decoding) or |y| itself (LGP-NMT's 1/L_y), the length prior is optional (LGP-NMT estimates it from the
// training data). A maximum output length of a*|x|+b, and n-best lists. Beam size 1 is exactly
// greedy search.
//
// One length, |y| = L_y: the output's words plus its end symbol, as y = (y_1 .. y_{L_y}) of
// Hashimoto & Tsuruoka's eq. (10) ends with the end of the sentence. A hypothesis cut at the
// maximum length is read as ended there (its output is emitted as one that ended), so it too has
// L_y = words + 1, in the normaliser and in the prior alike; fairseq, which forces </s> at its
// maximum length, counts the length the same way but also adds the forced </s>'s log-probability
// to the score, which this search does not (it matters only for hypotheses that reach the
// maximum length). No minimum length: an output that ends at its first step can win (fairseq's
// min_len of 1 forbids it).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <torch/types.h>

#include "trainer/data/batches.h"
#include "trainer/models/seq2seq_model.h"

namespace synmt {
namespace eval {
class LengthPrior;
}

struct SearchOptions {
  int beam_size = 5;
  double length_penalty = 1.0;  // alpha; 0 = raw log-probability
  double max_len_a = 1.5;
  int max_len_b = 10;
  int nbest = 1;
  std::string length_norm = "gnmt";  // gnmt | fairseq (|y|^alpha) | average (divide by |y|); |y| counts </s>
  // log p(L_y | L_x), L_y = words + 1 (see above), added before normalising; empty = no prior
  std::function<double(int64_t src_len, int64_t tgt_len)> length_prior;
  bool collect_attention = false;  // keep each hypothesis' source attention (the model's state["attention"])
};

struct Hypothesis {
  std::vector<int32_t> tokens;  // without </s>
  double log_prob = 0;          // sum of token log-probabilities (with </s>)
  double score = 0;             // log_prob / length penalty
  torch::Tensor attention;      // (steps, S) with collect_attention: one row per output step (</s> included)
};

// The ranking score of a finished hypothesis of `words` words (L_y = words + 1) with summed
// log-probability log_prob, from a source of `src_len` tokens: (log_prob + log prior(L_y)) / norm(L_y).
double final_score(const SearchOptions& options, double log_prob, std::size_t words, int64_t src_len);

// The search's prior hook over an estimated prior (eval/length_prior.h), whose statistics count the
// words of each training target: L_y = words + 1 is looked up as `words`.
std::function<double(int64_t, int64_t)> length_prior_hook(std::shared_ptr<const eval::LengthPrior> prior);

std::vector<std::vector<Hypothesis>> beam_search(Seq2SeqModel& model, const Batch& batch, const SearchOptions& options);
std::vector<std::vector<int32_t>> greedy_search(Seq2SeqModel& model, const Batch& batch, const SearchOptions& options);

}  // namespace synmt
