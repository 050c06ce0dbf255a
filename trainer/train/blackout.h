#pragma once
// BlackOut (Ji et al. 2016), the sampled-softmax criterion of LGP-NMT's training. For a target w_i
// and K negatives S_K drawn from a noise distribution q (unigram^alpha, one draw per sentence
// shared by all of its target positions), the weighted softmax over {w_i} u S_K
//   p~(j) = exp(s_j) / q_j  /  sum_{k in {w_i} u S_K} exp(s_k) / q_k
// gives the discriminative objective  log p~(w_i) + sum_{j in S_K} log(1 - p~(j))  (maximised; a
// negative equal to the target is left out). Perplexity, validation and decoding use the full
// softmax; only training sees this objective.
#include <torch/types.h>

#include <cstdint>
#include <vector>

namespace synmt {

struct BlackoutOptions {
  int64_t samples = 2000;     // K (the paper: 2,000 small / medium, 2,500 large)
  double alpha = 0.4;         // q(w) proportional to count(w)^alpha (LGP does not state it; N3LP's default)
  bool discriminative = true; // the sum over log(1 - p~(j)); off: the weighted-softmax NLL alone
};

// q from target-token counts (V); tokens never seen get probability 0 (never sampled).
torch::Tensor unigram_noise(const std::vector<int64_t>& counts, double alpha);

// K distinct negatives per sentence (B, K) drawn from q with the global generator (checkpointed
// with the training state, so a resumed run draws what an uninterrupted one would).
torch::Tensor draw_negatives(const torch::Tensor& noise, int64_t sentences, int64_t samples);
// The same with the number of tokens of non-zero noise given (counted once by the caller: on a GPU
// the count is a synchronising read).
torch::Tensor draw_negatives(const torch::Tensor& noise, int64_t sentences, int64_t samples, int64_t available);

struct BlackoutTerms {
  torch::Tensor objective;   // minimised: -(log p~(w) [+ sum log(1 - p~(j))]) summed over target tokens
  torch::Tensor target_nll;  // -log p~(w) summed over target tokens, detached (the training log's nll)
};

// hidden (B, T, D), weight (V, D): logits s = hidden weight^T; targets (B, T) with `pad` ignored;
// negatives (B, K) token ids per sentence; noise (V).
BlackoutTerms blackout_loss(const torch::Tensor& hidden, const torch::Tensor& weight, const torch::Tensor& targets, int64_t pad,
                            const torch::Tensor& noise, const torch::Tensor& negatives, bool discriminative);

}  // namespace synmt
