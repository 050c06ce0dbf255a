#pragma once
#include <torch/types.h>

namespace synmt {

// The loss on the tensors' device, with nothing copied to the host: a GPU run reads these values
// once per update instead of stalling on every micro-batch.
struct LossTensors {
  torch::Tensor loss;     // what is minimised: label-smoothed, summed over target tokens
  torch::Tensor nll_sum;  // plain negative log-likelihood summed (for perplexity), detached
};

struct LossValue {
  torch::Tensor loss;   // what is minimised: label-smoothed, summed over target tokens
  double nll_sum = 0;   // plain negative log-likelihood summed (for perplexity)
  int64_t tokens = 0;
};

// Label-smoothed cross-entropy over non-padding positions:
// (1 - eps) * -log p(y) + eps * mean_v(-log p(v)), summed over tokens.
LossTensors label_smoothed_nll_tensors(const torch::Tensor& log_probs, const torch::Tensor& target, double epsilon,
                                       int64_t pad);
// The same with the NLL and the token count on the host.
LossValue label_smoothed_nll(const torch::Tensor& log_probs, const torch::Tensor& target, double epsilon, int64_t pad);

}  // namespace synmt
