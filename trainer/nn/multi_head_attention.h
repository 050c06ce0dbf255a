#pragma once
// Scaled dot-product multi-head attention (Vaswani et al. 2017) with the two seams the syntax
// papers need: a hook that may rewrite the pre-softmax scores of any head (Pascal scales chosen
// heads by a Gaussian around each token's parent; SISA replaces a head by a supervised parent
// scorer), and keys/values that can be projected once and cached (incremental decoding).
#include <torch/nn/module.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/linear.h>
#include <torch/types.h>

#include <functional>

#include "trainer/models/seq2seq_model.h"

namespace synmt {

struct MultiHeadAttentionOptions {
  int64_t model_dim = 512;
  int64_t heads = 8;
  double dropout = 0.0;  // on the attention probabilities
};

// Receives the scores S = QK^T / sqrt(d_k) of one attention layer, shape (B, H, Tq, Tk), before the
// padding mask is applied (Pascal's order), and the batch's source input (side features); returns
// the scores to use. Hooks must keep the shape and may keep state for auxiliary losses.
using AttentionScoreHook = std::function<torch::Tensor(const torch::Tensor& scores, const SourceInput& input)>;

struct AttentionCall {
  // Broadcastable to (B, H, Tq, Tk); true where attending is allowed. Undefined: attend everywhere.
  torch::Tensor allowed;
  const AttentionScoreHook* hook = nullptr;
  const SourceInput* input = nullptr;  // given to the hook
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

}  // namespace synmt
