// The CUDA side of the kernels synmt relies on, each against the CPU path it must agree with:
// fused attention (flash / memory-efficient kernels on the GPU) against the CPU's explicit
// softmax path, fused Adam on the GPU against fused Adam on the CPU, bf16 autocast on the GPU
// against float32. Skipped (and shown as skipped) where no GPU is visible; the conformance suite
// runs every preset on the GPU as well.
#include <gtest/gtest.h>

#include <torch/cuda.h>
#include <torch/optim/adam.h>

#include "trainer/autocast.h"
#include "trainer/nn/multi_head_attention.h"
#include "trainer/train/fused_adam.h"

namespace {


torch::Tensor attend(synmt::MultiHeadAttention& mha, const torch::Tensor& q, const torch::Tensor& memory,
                     const torch::Tensor& allowed) {
  synmt::AttentionCall call;
  call.allowed = allowed;
  return mha->forward(q, memory, call);
}

}  // namespace

class Cuda : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!torch::cuda::is_available()) GTEST_SKIP() << "no CUDA device here";
  }
};

TEST_F(Cuda, FusedAttentionOnTheGpuEqualsTheCpuExplicitPath) {
  torch::manual_seed(3);
  synmt::MultiHeadAttention mha(synmt::MultiHeadAttentionOptions{64, 8, 0.1});
  mha->eval();
  const int64_t B = 3, T = 7, S = 9;
  auto q = torch::randn({B, T, 64}), memory = torch::randn({B, S, 64});
  auto lengths = torch::tensor({S, S - 2, S - 4});
  auto padding = (torch::arange(S).unsqueeze(0) < lengths.unsqueeze(1)).view({B, 1, 1, S});
  auto causal = torch::ones({T, T}, torch::kBool).tril().view({1, 1, T, T});
  const auto gpu = torch::Device(torch::kCUDA);
  for (const auto& [name, mask, mem] : std::vector<std::tuple<std::string, torch::Tensor, torch::Tensor>>{
           {"no mask", torch::Tensor(), memory}, {"padding", padding, memory}, {"causal", causal, q}}) {
    torch::Tensor exact;
    {
      synmt::ExplicitAttentionGuard explicit_only;
      mha->to(torch::kCPU);
      exact = attend(mha, q, mem, mask);
    }
    mha->to(gpu);
    auto fused = attend(mha, q.to(gpu), mem.to(gpu), mask.defined() ? mask.to(gpu) : mask).to(torch::kCPU);
    // TF32 is off for float32 matrix products in LibTorch by default: float32 rounding only
    EXPECT_LT((fused - exact).abs().max().item<double>(), 1e-4) << name;
  }
}

TEST_F(Cuda, FusedAdamOnTheGpuFollowsTheCpu) {
  torch::manual_seed(5);
  std::vector<torch::Tensor> cpu, gpu;
  for (auto shape : {std::vector<int64_t>{7, 3}, {11}, {2, 3, 4}}) {
    auto t = torch::randn(shape);
    cpu.push_back(t.clone().requires_grad_(true));
    gpu.push_back(t.to(torch::kCUDA).requires_grad_(true));
  }
  const auto options = torch::optim::AdamOptions(1e-3).betas({0.9, 0.98}).eps(1e-9).weight_decay(0.01);
  synmt::FusedAdam on_cpu(cpu, options), on_gpu(gpu, options);
  for (int s = 0; s < 20; ++s) {
    for (size_t i = 0; i < cpu.size(); ++i) {
      auto g = torch::randn(cpu[i].sizes());
      cpu[i].mutable_grad() = g.clone();
      gpu[i].mutable_grad() = g.to(torch::kCUDA);
    }
    on_cpu.step();
    on_gpu.step();
  }
  for (size_t i = 0; i < cpu.size(); ++i)
    EXPECT_LT((cpu[i] - gpu[i].to(torch::kCPU)).abs().max().item<double>(), 1e-6) << "parameter " << i;
}

TEST_F(Cuda, Bf16AutocastOnTheGpuStaysNearFloat32) {
  torch::manual_seed(7);
  synmt::MultiHeadAttention mha(synmt::MultiHeadAttentionOptions{64, 8, 0.0});
  mha->to(torch::kCUDA);
  mha->eval();
  auto q = torch::randn({4, 10, 64}, torch::kCUDA);
  const auto exact = attend(mha, q, q, torch::Tensor());
  torch::Tensor mixed;
  {
    synmt::AutocastScope bf16(torch::kCUDA, torch::kBFloat16);
    mixed = attend(mha, q, q, torch::Tensor());
  }
  EXPECT_EQ(mixed.scalar_type(), torch::kBFloat16);  // the products ran in bf16
  EXPECT_FALSE(synmt::AutocastScope::is_enabled(torch::kCUDA));
  // bf16 keeps 8 significant bits: relative error about 2^-8 per rounding
  const double scale = exact.abs().max().item<double>();
  EXPECT_LT((mixed.to(torch::kFloat32) - exact).abs().max().item<double>(), 0.05 * scale);
}
