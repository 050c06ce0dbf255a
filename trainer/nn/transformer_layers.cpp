#include "trainer/nn/transformer_layers.h"

#include <torch/nn/init.h>

#include <cmath>

namespace synmt {

torch::Tensor sinusoidal_positions(int64_t length, int64_t dim, int64_t offset) {
  auto pos = torch::arange(offset, offset + length, torch::kFloat64).unsqueeze(1);  // (L, 1)
  auto i = torch::arange(0, dim, 2, torch::kFloat64);                                 // 2i
  auto angle = pos / torch::pow(10000.0, i / static_cast<double>(dim));               // (L, ceil(d/2))
  auto pe = torch::zeros({length, dim}, torch::kFloat64);
  using torch::indexing::Slice;
  pe.index_put_({Slice(), Slice(0, dim, 2)}, torch::sin(angle));
  pe.index_put_({Slice(), Slice(1, dim, 2)}, torch::cos(angle).narrow(1, 0, dim / 2));
  return pe.to(torch::kFloat32);
}

namespace {
// sub-layer with residual connection, pre- or post-norm
template <typename F>
torch::Tensor residual(const torch::Tensor& x, torch::nn::LayerNorm& norm, torch::nn::Dropout& dropout, bool pre_norm, F&& f) {
  if (pre_norm) return x + dropout(f(norm(x)));
  return norm(x + dropout(f(x)));
}
torch::nn::LayerNorm make_norm(int64_t d) { return torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})); }
}  // namespace

FeedForwardImpl::FeedForwardImpl(const TransformerLayerOptions& o) {
  expand = register_module("expand", torch::nn::Linear(o.model_dim, o.ffn_dim));
  contract = register_module("contract", torch::nn::Linear(o.ffn_dim, o.model_dim));
  dropout = register_module("dropout", torch::nn::Dropout(o.relu_dropout));
  torch::NoGradGuard no_grad;
  for (auto* l : {&expand, &contract}) {
    torch::nn::init::xavier_uniform_((*l)->weight);
    (*l)->bias.zero_();
  }
}

torch::Tensor FeedForwardImpl::forward(const torch::Tensor& x) { return contract(dropout(torch::relu(expand(x)))); }

TransformerEncoderLayerImpl::TransformerEncoderLayerImpl(const TransformerLayerOptions& o) : pre_norm_(o.pre_norm) {
  self_attn = register_module("self_attn", MultiHeadAttention(MultiHeadAttentionOptions{o.model_dim, o.heads, o.attention_dropout}));
  ffn = register_module("ffn", FeedForward(o));
  attn_norm = register_module("attn_norm", make_norm(o.model_dim));
  ffn_norm = register_module("ffn_norm", make_norm(o.model_dim));
  dropout = register_module("dropout", torch::nn::Dropout(o.dropout));
}

torch::Tensor TransformerEncoderLayerImpl::forward(const torch::Tensor& x, const AttentionCall& call) {
  auto h = residual(x, attn_norm, dropout, pre_norm_, [&](const torch::Tensor& in) { return self_attn->forward(in, in, call); });
  return residual(h, ffn_norm, dropout, pre_norm_, [&](const torch::Tensor& in) { return ffn(in); });
}

TransformerDecoderLayerImpl::TransformerDecoderLayerImpl(const TransformerLayerOptions& o) : pre_norm_(o.pre_norm) {
  MultiHeadAttentionOptions ao{o.model_dim, o.heads, o.attention_dropout};
  self_attn = register_module("self_attn", MultiHeadAttention(ao));
  cross_attn = register_module("cross_attn", MultiHeadAttention(ao));
  ffn = register_module("ffn", FeedForward(o));
  self_norm = register_module("self_norm", make_norm(o.model_dim));
  cross_norm = register_module("cross_norm", make_norm(o.model_dim));
  ffn_norm = register_module("ffn_norm", make_norm(o.model_dim));
  dropout = register_module("dropout", torch::nn::Dropout(o.dropout));
}

torch::Tensor TransformerDecoderLayerImpl::forward(const torch::Tensor& x, DecoderLayerCache& cache,
                                                   const torch::Tensor& self_allowed, const torch::Tensor& src_allowed,
                                                   torch::Tensor* cross_probabilities) {
  auto h = residual(x, self_norm, dropout, pre_norm_, [&](const torch::Tensor& in) {
    auto [k, v] = self_attn->keys_values(in);
    if (cache.self_keys.defined()) {  // incremental: attend over the cached past and this step
      cache.self_keys = k = torch::cat({cache.self_keys, k}, 2);
      cache.self_values = v = torch::cat({cache.self_values, v}, 2);
    }
    AttentionCall call;
    call.allowed = self_allowed;
    return self_attn->attend(in, k, v, call);
  });
  h = residual(h, cross_norm, dropout, pre_norm_, [&](const torch::Tensor& in) {
    AttentionCall call;
    call.allowed = src_allowed;
    call.probabilities = cross_probabilities;
    return cross_attn->attend(in, cache.cross_keys, cache.cross_values, call);
  });
  return residual(h, ffn_norm, dropout, pre_norm_, [&](const torch::Tensor& in) { return ffn(in); });
}

}  // namespace synmt
