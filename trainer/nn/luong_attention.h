#pragma once
// Luong et al. (2015) attention of a query over a memory: dot (h^T s) or general (h^T W_a s)
// scores, masked softmax over the memory's real positions, and the weighted sum of the memory.
// The input-feeding decoder uses one per attended memory.
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/types.h>

#include <string>

namespace synmt {

enum class AttentionScore { kDot, kGeneral };
AttentionScore parse_attention_score(const std::string& name, const std::string& context);  // dot | general

struct LuongAttentionOptions {
  int64_t query_dim = 0, memory_dim = 0;
  AttentionScore score = AttentionScore::kGeneral;
};

class LuongAttentionImpl : public torch::nn::Module {
 public:
  explicit LuongAttentionImpl(const LuongAttentionOptions& options);
  // query (N, Dq), memory (N, S, Dm), allowed (N, S) bool: the weights (N, S).
  torch::Tensor weights(const torch::Tensor& query, const torch::Tensor& memory, const torch::Tensor& allowed);

 private:
  LuongAttentionOptions options_;
  torch::nn::Linear project{nullptr};  // W_a (general only)
};
TORCH_MODULE(LuongAttention);

// sum_i weights_i memory_i: (N, S) x (N, S, D) -> (N, D)
torch::Tensor attention_context(const torch::Tensor& weights, const torch::Tensor& memory);

}  // namespace synmt
