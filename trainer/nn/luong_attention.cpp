#include "trainer/nn/luong_attention.h"

#include <limits>

#include "core/error.h"

namespace synmt {

AttentionScore parse_attention_score(const std::string& name, const std::string& context) {
  if (name == "dot") return AttentionScore::kDot;
  if (name == "general") return AttentionScore::kGeneral;
  throw ConfigError(context + ": attention score '" + name + "' (dot | general)");
}

LuongAttentionImpl::LuongAttentionImpl(const LuongAttentionOptions& o) : options_(o) {
  if (o.score == AttentionScore::kDot && o.query_dim != o.memory_dim)
    throw ConfigError("dot attention needs equal query and memory sizes (" + std::to_string(o.query_dim) + " vs " +
                      std::to_string(o.memory_dim) + "); use general");
  if (o.score == AttentionScore::kGeneral)
    project = register_module("project", torch::nn::Linear(torch::nn::LinearOptions(o.query_dim, o.memory_dim).bias(false)));
}

torch::Tensor LuongAttentionImpl::weights(const torch::Tensor& query, const torch::Tensor& memory, const torch::Tensor& allowed) {
  auto q = options_.score == AttentionScore::kGeneral ? project(query) : query;  // W_a^T h_t, so that s_i . (.) = h_t^T W_a s_i
  auto scores = torch::bmm(memory, q.unsqueeze(2)).squeeze(2);
  scores = scores.masked_fill(allowed.logical_not(), -std::numeric_limits<float>::infinity());
  return torch::softmax(scores, -1);
}

torch::Tensor attention_context(const torch::Tensor& weights, const torch::Tensor& memory) {
  return torch::bmm(weights.unsqueeze(1), memory).squeeze(1);
}

}  // namespace synmt
