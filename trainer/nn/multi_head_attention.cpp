#include "trainer/nn/multi_head_attention.h"

#include <ATen/ops/scaled_dot_product_attention.h>
#include <torch/nn/init.h>

#include <atomic>
#include <cmath>
#include <limits>
#include <optional>

#include "core/error.h"

namespace synmt {

namespace {
std::atomic<bool> g_fused_attention{true};
}  // namespace

ExplicitAttentionGuard::ExplicitAttentionGuard() : previous_(g_fused_attention.exchange(false)) {}
ExplicitAttentionGuard::~ExplicitAttentionGuard() { g_fused_attention.store(previous_); }

MultiHeadAttentionImpl::MultiHeadAttentionImpl(const MultiHeadAttentionOptions& o) : options_(o) {
  if (o.heads <= 0 || o.model_dim % o.heads != 0)
    throw ConfigError("attention: model_dim " + std::to_string(o.model_dim) + " is not a multiple of heads " +
                      std::to_string(o.heads));
  head_dim_ = o.model_dim / o.heads;
  q_proj = register_module("q_proj", torch::nn::Linear(o.model_dim, o.model_dim));
  k_proj = register_module("k_proj", torch::nn::Linear(o.model_dim, o.model_dim));
  v_proj = register_module("v_proj", torch::nn::Linear(o.model_dim, o.model_dim));
  out_proj = register_module("out_proj", torch::nn::Linear(o.model_dim, o.model_dim));
  dropout = register_module("dropout", torch::nn::Dropout(o.dropout));
  torch::NoGradGuard no_grad;
  for (auto* l : {&q_proj, &k_proj, &v_proj, &out_proj}) {
    torch::nn::init::xavier_uniform_((*l)->weight);
    (*l)->bias.zero_();
  }
}

torch::Tensor MultiHeadAttentionImpl::split_heads(const torch::Tensor& x) const {
  return x.view({x.size(0), x.size(1), options_.heads, head_dim_}).transpose(1, 2);
}

std::pair<torch::Tensor, torch::Tensor> MultiHeadAttentionImpl::keys_values(const torch::Tensor& memory) {
  return {split_heads(k_proj(memory)), split_heads(v_proj(memory))};
}

torch::Tensor MultiHeadAttentionImpl::attend(const torch::Tensor& query, const torch::Tensor& keys,
                                             const torch::Tensor& values, const AttentionCall& call) {
  auto q = split_heads(q_proj(query));
  const auto scaled_scores = [&] {
    auto scores = torch::matmul(q, keys.transpose(-2, -1)) / std::sqrt(static_cast<double>(head_dim_));
    for (auto* modifier : call.modifiers) scores = modifier->modify(scores, query, *call.context);
    if (call.allowed.defined())
      scores = scores.masked_fill(call.allowed.logical_not(), -std::numeric_limits<float>::infinity());
    return scores;
  };
  torch::Tensor context;  // (B, H, Tq, dk)
  if (call.modifiers.empty() && g_fused_attention.load(std::memory_order_relaxed)) {
    // LibTorch 2.x's fused kernel (flash / memory-efficient on CUDA, flash on the CPU): the same
    // softmax(q k^T / sqrt(dk)) v without materialising the scores; a boolean mask means "may
    // attend" as `allowed` does. Heads whose scores are rewritten (Pascal, SISA, parent bias) take
    // the explicit path below.
    std::optional<torch::Tensor> mask;
    if (call.allowed.defined()) mask = call.allowed;
    context = at::scaled_dot_product_attention(q, keys, values, mask, is_training() ? options_.dropout : 0.0);
    // probabilities wanted (analysis dumps, UnkRep): computed beside the kernel, so that asking
    // for them leaves the output bit for bit as it is without
    if (call.probabilities) *call.probabilities = torch::softmax(scaled_scores(), -1);
  } else {
    auto probabilities = torch::softmax(scaled_scores(), -1);
    if (call.probabilities) *call.probabilities = probabilities;
    context = torch::matmul(dropout(probabilities), values);
  }
  return out_proj(context.transpose(1, 2).reshape({query.size(0), query.size(1), options_.model_dim}));
}

torch::Tensor MultiHeadAttentionImpl::forward(const torch::Tensor& query, const torch::Tensor& memory, const AttentionCall& call) {
  auto [k, v] = keys_values(memory);
  return attend(query, k, v, call);
}

}  // namespace synmt
