#include "trainer/train/loss.h"

namespace synmt {

LossValue label_smoothed_nll(const torch::Tensor& log_probs, const torch::Tensor& target, double epsilon, int64_t pad) {
  auto lp = log_probs.reshape({-1, log_probs.size(-1)});
  auto tgt = target.reshape({-1});
  auto mask = tgt.ne(pad);
  auto nll = -lp.gather(1, tgt.unsqueeze(1)).squeeze(1).masked_select(mask);
  LossValue v;
  v.tokens = mask.sum().item<int64_t>();
  v.nll_sum = nll.sum().item<double>();
  if (epsilon > 0) {
    auto smooth = -lp.mean(1).masked_select(mask);
    v.loss = (1.0 - epsilon) * nll.sum() + epsilon * smooth.sum();
  } else {
    v.loss = nll.sum();
  }
  return v;
}

}  // namespace synmt
