#pragma once
// Transformer encoder and decoder layers (Vaswani et al. 2017), post-norm as in the paper or
// pre-norm (layer norm inside the residual branch, more stable for deep or high-lr runs).
#include <torch/nn/module.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>

#include "trainer/nn/multi_head_attention.h"

namespace synmt {

struct TransformerLayerOptions {
  int64_t model_dim = 512, heads = 8, ffn_dim = 2048;
  double dropout = 0.1;            // on every sub-layer output (residual dropout)
  double attention_dropout = 0.0;  // on attention probabilities
  double relu_dropout = 0.0;       // inside the feed-forward block
  bool pre_norm = false;
};

// Sinusoidal position encodings PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(...),
// rows offset .. offset+length-1: (length, dim).
torch::Tensor sinusoidal_positions(int64_t length, int64_t dim, int64_t offset = 0);

class FeedForwardImpl : public torch::nn::Module {
 public:
  explicit FeedForwardImpl(const TransformerLayerOptions& o);
  torch::Tensor forward(const torch::Tensor& x);

 private:
  torch::nn::Linear expand{nullptr}, contract{nullptr};
  torch::nn::Dropout dropout{nullptr};
};
TORCH_MODULE(FeedForward);

class TransformerEncoderLayerImpl : public torch::nn::Module {
 public:
  explicit TransformerEncoderLayerImpl(const TransformerLayerOptions& o);
  // x (B, S, D); call.allowed (B, 1, 1, S) marks real tokens; call.modifiers may rewrite the scores.
  torch::Tensor forward(const torch::Tensor& x, const AttentionCall& call);

 private:
  bool pre_norm_;
  MultiHeadAttention self_attn{nullptr};
  FeedForward ffn{nullptr};
  torch::nn::LayerNorm attn_norm{nullptr}, ffn_norm{nullptr};
  torch::nn::Dropout dropout{nullptr};
};
TORCH_MODULE(TransformerEncoderLayer);

// Keys/values a decoder layer keeps between incremental steps: its own past (grown each step) and
// the projected encoder output (computed once per sentence).
struct DecoderLayerCache {
  torch::Tensor self_keys, self_values;    // (B, H, t, dk); undefined: no incremental decoding
  torch::Tensor cross_keys, cross_values;  // (B, H, S, dk)
};

class TransformerDecoderLayerImpl : public torch::nn::Module {
 public:
  explicit TransformerDecoderLayerImpl(const TransformerLayerOptions& o);
  std::pair<torch::Tensor, torch::Tensor> cross_keys_values(const torch::Tensor& memory) {
    return cross_attn->keys_values(memory);
  }
  // x (B, T, D). self_allowed: causal mask (1, 1, T, T) for teacher forcing, undefined when
  // stepping. src_allowed (B, 1, 1, S). With cache.self_keys defined, x's keys/values are
  // appended to the cache (incremental decoding). cross_probabilities receives the attention.
  torch::Tensor forward(const torch::Tensor& x, DecoderLayerCache& cache, const torch::Tensor& self_allowed,
                        const torch::Tensor& src_allowed, torch::Tensor* cross_probabilities = nullptr);

 private:
  bool pre_norm_;
  MultiHeadAttention self_attn{nullptr}, cross_attn{nullptr};
  FeedForward ffn{nullptr};
  torch::nn::LayerNorm self_norm{nullptr}, cross_norm{nullptr}, ffn_norm{nullptr};
  torch::nn::Dropout dropout{nullptr};
};
TORCH_MODULE(TransformerDecoderLayer);

}  // namespace synmt
