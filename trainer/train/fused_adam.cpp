#include "trainer/train/fused_adam.h"

#include <ATen/ops/_fused_adam.h>
#include <torch/types.h>

#include <map>
#include <utility>
#include <vector>

namespace synmt {

torch::Tensor FusedAdam::step(LossClosure closure) {
  torch::NoGradGuard no_grad;
  torch::Tensor loss;
  if (closure) {
    torch::AutoGradMode enable_grad(true);
    loss = closure();
  }
  for (auto& group : param_groups()) {
    const auto& o = static_cast<const torch::optim::AdamOptions&>(group.options());
    // amsgrad needs a fourth state list; no synmt configuration uses it (TrainOptions has no key)
    TORCH_CHECK(!o.amsgrad(), "FusedAdam: amsgrad is not supported; use torch::optim::Adam");
    // one kernel call per (device, step count): the kernel takes the step as a tensor on the
    // parameters' device, and parameters that missed updates (no gradient) have fewer steps
    std::map<std::pair<std::string, int64_t>, std::vector<torch::Tensor>> params, grads, avgs, sqs;
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      TORCH_CHECK(!p.grad().is_sparse(), "FusedAdam: sparse gradients are not supported");
      auto& slot = state()[p.unsafeGetTensorImpl()];
      if (!slot) {
        auto fresh = std::make_unique<torch::optim::AdamParamState>();
        fresh->step(0);
        fresh->exp_avg(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        fresh->exp_avg_sq(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        slot = std::move(fresh);
      }
      auto& s = static_cast<torch::optim::AdamParamState&>(*slot);
      s.step(s.step() + 1);
      const auto key = std::make_pair(p.device().str(), s.step());
      params[key].push_back(p);
      grads[key].push_back(p.grad());
      avgs[key].push_back(s.exp_avg());
      sqs[key].push_back(s.exp_avg_sq());
    }
    for (auto& [key, ps] : params) {
      const auto step = torch::full({}, static_cast<double>(key.second), ps.front().options().dtype(torch::kFloat32));
      const std::vector<torch::Tensor> steps(ps.size(), step);
      at::_fused_adam_(ps, grads[key], avgs[key], sqs[key], /*max_exp_avg_sqs=*/{}, steps, o.lr(), std::get<0>(o.betas()),
                       std::get<1>(o.betas()), o.weight_decay(), o.eps(), /*amsgrad=*/false, /*maximize=*/false);
    }
  }
  return loss;
}

}  // namespace synmt
