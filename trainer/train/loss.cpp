#include "trainer/train/loss.h"

namespace synmt {

LossTensors label_smoothed_nll_tensors(const torch::Tensor& log_probs, const torch::Tensor& target, double epsilon,
                                       int64_t pad) {
  // float32 whatever the forward pass ran in (bf16 autocast): sums over many tokens
  auto lp = log_probs.reshape({-1, log_probs.size(-1)}).to(torch::kFloat32);
  auto tgt = target.reshape({-1});
  auto keep = tgt.ne(pad).to(torch::kFloat32);  // multiplies instead of masked_select: no host sync
  auto nll = -lp.gather(1, tgt.unsqueeze(1)).squeeze(1) * keep;
  LossTensors v;
  v.nll_sum = nll.sum().detach();
  if (epsilon > 0) {
    auto smooth = -lp.mean(1) * keep;
    v.loss = (1.0 - epsilon) * nll.sum() + epsilon * smooth.sum();
  } else {
    v.loss = nll.sum();
  }
  return v;
}

LossValue label_smoothed_nll(const torch::Tensor& log_probs, const torch::Tensor& target, double epsilon, int64_t pad) {
  LossTensors t = label_smoothed_nll_tensors(log_probs, target, epsilon, pad);
  LossValue v;
  v.loss = t.loss;
  v.nll_sum = t.nll_sum.item<double>();
  v.tokens = target.ne(pad).sum().item<int64_t>();
  return v;
}

}  // namespace synmt
