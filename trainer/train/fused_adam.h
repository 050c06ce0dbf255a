#pragma once
// Adam whose update runs as LibTorch's fused kernel (aten::_fused_adam_: one pass over each
// parameter reading the gradient and both moments, on the CPU and on CUDA) instead of the C++
// API's six element-wise ops per parameter. The same mathematics as torch::optim::Adam
// (Kingma & Ba with L2 weight decay added to the gradient, eps outside the square root) and the
// same state (torch::optim::AdamParamState), so checkpoints and training states are
// interchangeable with torch::optim::Adam's; results agree to float rounding (the kernel fuses
// the arithmetic), tested in tests/trainer/test_fused_adam.cpp.
#include <torch/optim/adam.h>

namespace synmt {

class FusedAdam : public torch::optim::Adam {
 public:
  using torch::optim::Adam::Adam;
  torch::Tensor step(LossClosure closure = nullptr) override;
};

}  // namespace synmt
