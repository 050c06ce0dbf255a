#pragma once
// +SISA (Strubell et al. 2018's syntactically-informed self-attention, as Pascal's baseline): in one
// encoder layer one head's scores are replaced by a biaffine parent scorer over the layer's input,
//   s_ij = q_i^T U k_j + u^T k_j,   q_i = f(W_q x_i + b_q),  k_j = f(W_k x_j + b_k),
// with f a leaky ReLU (activation "leaky_relu", the default) or the identity ("none"),
// and its attention is trained towards each token's parent (feature parent_first: the first
// sub-word of the parent word; the root points at its own first sub-word) with the auxiliary loss
// "parent_attention" (cross-entropy summed over source tokens, like the NMT loss; its weight is
// train.aux_loss_weights.parent_attention, default 1). The head's values stay the layer's own.
#include <string>

#include <torch/nn/modules/linear.h>
#include <torch/types.h>

#include "trainer/models/transformer/syntax_modules.h"

namespace synmt {

struct SisaOptions {
  std::string kind = "sisa";
  int64_t layer = 0;   // 0-based: the paper's "layer 1" is 0
  int64_t head = -1;   // -1: the last head
  int64_t dim = 0;     // biaffine dimension; 0: model_dim / heads (a head's size)
  bool loss = true;
  // Pascal's paper: Q and K "are computed through a feed-forward layer"; its released code
  // (multihead_lisa.py) makes that layer a linear map followed by a leaky ReLU (slope 0.01), which
  // is followed here. "none": linear projections only (this project's +SISA runs before
  // 2026-11-28; their checkpoints store no activation and would now read as leaky_relu).
  std::string activation = "leaky_relu";
  template <class Self, class Visit>
  static void fields(Self& o, Visit&& v) {
    v("kind", o.kind);
    v("layer", o.layer);
    v("head", o.head);
    v("dim", o.dim);
    v("loss", o.loss);
    v("activation", o.activation);
  }
};

class SisaHeadImpl : public ScoreModifierImpl {
 public:
  SisaHeadImpl(SisaOptions options, const SyntaxModuleSizes& sizes);
  torch::Tensor modify(const torch::Tensor& scores, const torch::Tensor& query_input, const SeamContext& context) override;
  std::set<std::string> required_features() const override { return {kSourceFeatureParentFirst}; }
  int64_t layer() const override { return options_.layer; }
  int64_t head() const { return head_; }

 private:
  SisaOptions options_;
  int64_t head_ = 0;
  torch::nn::Linear query{nullptr}, key{nullptr};
  torch::Tensor bilinear, key_bias;  // U (dim, dim), u (dim)
};

}  // namespace synmt
