#pragma once
// Scaled dot-product multi-head attention (Vaswani et al. 2017) with the two seams the syntax
// papers need: score modifiers that may rewrite the pre-softmax scores of any head
// (nn/syntax_seams.h), and keys/values that can be projected once and cached (incremental decoding).
#include <torch/nn/module.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/linear.h>
#include <torch/types.h>

#include <vector>

#include "trainer/nn/syntax_seams.h"

namespace synmt {

struct MultiHeadAttentionOptions {
  int64_t model_dim = 512;
  int64_t heads = 8;
  double dropout = 0.0;  // on the attention probabilities
};

struct AttentionCall {
  // Broadcastable to (B, H, Tq, Tk); true where attending is allowed. Undefined: attend everywhere.
  torch::Tensor allowed;
  // Score modifiers applied in order to the scores before the padding mask (Pascal's order).
  std::vector<ScoreModifierImpl*> modifiers;
  const SeamContext* context = nullptr;  // given to the modifiers
  torch::Tensor* probabilities = nullptr;  // when set, receives the attention (B, H, Tq, Tk)
};

class MultiHeadAttentionImpl : public torch::nn::Module {
 public:
  explicit MultiHeadAttentionImpl(const MultiHeadAttentionOptions& options);
  // Keys and values of `memory` (B, T, D), split into heads: (B, H, T, D/H) each.
  std::pair<torch::Tensor, torch::Tensor> keys_values(const torch::Tensor& memory);
  // Attends from `query` (B, Tq, D) over projected keys/values (from keys_values); returns (B, Tq, D).
  torch::Tensor attend(const torch::Tensor& query, const torch::Tensor& keys, const torch::Tensor& values,
                       const AttentionCall& call = {});
  torch::Tensor forward(const torch::Tensor& query, const torch::Tensor& memory, const AttentionCall& call = {});

 private:
  torch::Tensor split_heads(const torch::Tensor& x) const;  // (B, T, D) -> (B, H, T, D/H)

  MultiHeadAttentionOptions options_;
  int64_t head_dim_;
  torch::nn::Linear q_proj{nullptr}, k_proj{nullptr}, v_proj{nullptr}, out_proj{nullptr};
  torch::nn::Dropout dropout{nullptr};
};
TORCH_MODULE(MultiHeadAttention);

// While one lives, every head takes the explicit softmax path, also those the fused kernel would
// take (heads without a score modifier whose probabilities nobody asked for). The two paths agree
// to float rounding only: tests that compare a model with a no-op score modifier against its
// baseline bit for bit hold one, so that both models do the same arithmetic.
class ExplicitAttentionGuard {
 public:
  ExplicitAttentionGuard();
  ~ExplicitAttentionGuard();
  ExplicitAttentionGuard(const ExplicitAttentionGuard&) = delete;
  ExplicitAttentionGuard& operator=(const ExplicitAttentionGuard&) = delete;

 private:
  bool previous_;
};

}  // namespace synmt
