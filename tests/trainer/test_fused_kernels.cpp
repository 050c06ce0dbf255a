// LibTorch 2.x's fused kernels that synmt uses, each against its reference: the fused attention
// kernel against the explicit softmax(q k^T / sqrt(dk)) v path, the fused Adam kernel against
// torch::optim::Adam and against Adam's first step in closed form.
#include <gtest/gtest.h>

#include <torch/optim/adam.h>
#include <torch/serialize.h>

#include <cmath>
#include <sstream>

#include "trainer/nn/multi_head_attention.h"
#include "trainer/train/fused_adam.h"

namespace {

torch::Tensor attend(synmt::MultiHeadAttention& mha, const torch::Tensor& q, const torch::Tensor& memory,
                     const torch::Tensor& allowed, torch::Tensor* probabilities = nullptr) {
  synmt::AttentionCall call;
  call.allowed = allowed;
  call.probabilities = probabilities;
  return mha->forward(q, memory, call);
}

}  // namespace

TEST(FusedKernels, FusedAttentionEqualsTheExplicitPath) {
  torch::manual_seed(3);
  synmt::MultiHeadAttention mha(synmt::MultiHeadAttentionOptions{64, 8, 0.1});
  mha->eval();  // dropout off: the two paths draw different random masks
  const int64_t B = 3, T = 7, S = 9;
  auto q = torch::randn({B, T, 64}), memory = torch::randn({B, S, 64});
  // source padding: sentence b has S - 2b real tokens
  auto lengths = torch::tensor({S, S - 2, S - 4});
  auto padding = (torch::arange(S).unsqueeze(0) < lengths.unsqueeze(1)).view({B, 1, 1, S});
  auto causal = torch::ones({T, T}, torch::kBool).tril().view({1, 1, T, T});
  for (const auto& [name, mask, mem] : std::vector<std::tuple<std::string, torch::Tensor, torch::Tensor>>{
           {"no mask", torch::Tensor(), memory}, {"padding", padding, memory}, {"causal", causal, q}}) {
    torch::Tensor exact, exact_p, wanted_p;
    {
      synmt::ExplicitAttentionGuard explicit_only;
      exact = attend(mha, q, mem, mask, &exact_p);
    }
    auto fused = attend(mha, q, mem, mask);
    EXPECT_LT((fused - exact).abs().max().item<double>(), 1e-5) << name;
    EXPECT_FALSE(torch::equal(fused, exact)) << name << ": the fused kernel was not taken (its rounding differs)";
    // asking for the probabilities changes nothing in the output, and they are the explicit ones
    EXPECT_TRUE(torch::equal(attend(mha, q, mem, mask, &wanted_p), fused)) << name;
    EXPECT_TRUE(torch::equal(wanted_p, exact_p)) << name;
  }
  // gradients through both paths agree as well
  auto qa = q.clone().requires_grad_(true), qb = q.clone().requires_grad_(true);
  attend(mha, qa, memory, padding).pow(2).sum().backward();
  {
    synmt::ExplicitAttentionGuard explicit_only;
    attend(mha, qb, memory, padding).pow(2).sum().backward();
  }
  EXPECT_LT((qa.grad() - qb.grad()).abs().max().item<double>(), 1e-4);
}

TEST(FusedKernels, FusedAdamFirstStepIsTheClosedForm) {
  // Kingma & Ba, step 1: m = (1-b1) g, v = (1-b2) g^2, bias-corrected m^ = g, v^ = g^2, so
  // p1 = p0 - lr g / (|g| + eps)
  auto p = torch::randn({5, 4}).requires_grad_(true);
  const auto p0 = p.detach().clone();
  const auto g = torch::randn({5, 4});
  synmt::FusedAdam adam({p}, torch::optim::AdamOptions(0.01).betas({0.9, 0.98}).eps(1e-9));
  p.mutable_grad() = g.clone();
  adam.step();
  const auto expected = p0 - 0.01 * g / (g.abs() + 1e-9);
  EXPECT_LT((p.detach() - expected).abs().max().item<double>(), 1e-7);
}

TEST(FusedKernels, FusedAdamFollowsTorchAdamAndSharesItsState) {
  torch::manual_seed(5);
  std::vector<torch::Tensor> a, b;
  for (auto shape : {std::vector<int64_t>{7, 3}, {11}, {2, 3, 4}}) {
    auto t = torch::randn(shape);
    a.push_back(t.clone().requires_grad_(true));
    b.push_back(t.clone().requires_grad_(true));
  }
  const auto options = torch::optim::AdamOptions(1e-3).betas({0.9, 0.98}).eps(1e-9).weight_decay(0.01);
  synmt::FusedAdam fused(a, options);
  torch::optim::Adam reference(b, options);
  auto run = [&](torch::optim::Optimizer& fused_opt, torch::optim::Optimizer& ref_opt, int steps) {
    for (int s = 0; s < steps; ++s) {
      for (size_t i = 0; i < a.size(); ++i) {
        // the middle parameter misses every third update: its step count falls behind the others'
        const bool skip = i == 1 && s % 3 == 2;
        auto g = torch::randn(a[i].sizes());
        a[i].mutable_grad() = skip ? torch::Tensor() : g.clone();
        b[i].mutable_grad() = skip ? torch::Tensor() : g.clone();
      }
      fused_opt.step();
      ref_opt.step();
      for (size_t i = 0; i < a.size(); ++i)
        ASSERT_LT((a[i] - b[i]).abs().max().item<double>(), 1e-6) << "parameter " << i << " step " << s;
    }
  };
  run(fused, reference, 20);
  // the state FusedAdam saves loads into torch::optim::Adam (and back): training states stay
  // readable whichever of the two wrote them
  std::stringstream saved;
  {
    torch::serialize::OutputArchive archive;
    fused.save(archive);
    archive.save_to(saved);
  }
  torch::optim::Adam reloaded(a, options);
  torch::serialize::InputArchive in;
  in.load_from(saved);
  reloaded.load(in);
  run(reloaded, reference, 5);
  // and back: FusedAdam resumes from the state torch::optim::Adam wrote (older training states)
  std::stringstream saved_by_torch;
  {
    torch::serialize::OutputArchive archive;
    reference.save(archive);
    archive.save_to(saved_by_torch);
  }
  synmt::FusedAdam back(a, options);
  torch::serialize::InputArchive in_torch;
  in_torch.load_from(saved_by_torch);
  back.load(in_torch);
  run(back, reference, 5);
}
