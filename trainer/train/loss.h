#pragma once
#include <torch/types.h>

namespace synmt {

struct LossValue {
  torch::Tensor loss;   // what is minimised: label-smoothed, summed over target tokens
  double nll_sum = 0;   // plain negative log-likelihood summed (for perplexity)
  int64_t tokens = 0;
};

// Label-smoothed cross-entropy over non-padding positions:
// (1 - eps) * -log p(y) + eps * mean_v(-log p(v)), summed over tokens.
LossValue label_smoothed_nll(const torch::Tensor& log_probs, const torch::Tensor& target, double epsilon, int64_t pad);

}  // namespace synmt
