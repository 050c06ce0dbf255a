#pragma once
// Head-word selection over encoder states S (Tran & Bisk 2018): S_q = W_q S, S_k = W_k S,
// S_v = W_v S; phi = S_q S_k^T / sqrt(d) with phi[i][j] scoring token i as the head of token j
// and phi[j][j] scoring j as the root; beta from phi; M = annotations m_j = sum_i beta_ij v_i.
//   tree: beta = single-root matrix-tree marginals (nn/matrix_tree.h)
//   flat: beta_.j = softmax over i of phi_ij, i = j included (FA-NMT; the diagonal plays the root)
//   hard: one-hot argmax_i of the tree marginals forward, their gradient backward (straight-through)
// Optionally some tokens may head no other token (SA-NMT's mask_punct_heads): phi_ij = -inf for
// such an i and j != i; phi_ii (i as the root, or itself in FA-NMT) stays.
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/types.h>

#include <string>

namespace synmt {

enum class HeadSelection { kTree, kFlat, kHard };
HeadSelection parse_head_selection(const std::string& name, const std::string& context);  // tree | flat | hard

struct StructuredAttentionOptions {
  int64_t input_dim = 0;
  int64_t dim = 0;  // of S_q, S_k, S_v (and so of the annotations M)
  HeadSelection selection = HeadSelection::kTree;
  bool float64 = false;  // marginals in float64 (the scores and M stay in the input's dtype)
};

struct HeadSelectionOutput {
  torch::Tensor phi;          // (B, n, n)
  torch::Tensor beta;         // (B, n, n), columns are head distributions
  torch::Tensor annotations;  // M (B, n, dim)
};

class StructuredAttentionImpl : public torch::nn::Module {
 public:
  explicit StructuredAttentionImpl(const StructuredAttentionOptions& options);
  // may_head (B, n) bool, optional: false for tokens that head no other token
  HeadSelectionOutput forward(const torch::Tensor& states, const torch::Tensor& lengths, const torch::Tensor& may_head = {});

 private:
  StructuredAttentionOptions options_;
  torch::nn::Linear query{nullptr}, key{nullptr}, value{nullptr};
};
TORCH_MODULE(StructuredAttention);

}  // namespace synmt
