#include "trainer/models/transformer/sisa_head.h"

#include <cmath>

#include "core/config.h"

namespace synmt {

SisaHeadImpl::SisaHeadImpl(SisaOptions o, const SyntaxModuleSizes& sizes) : options_(std::move(o)) {
  if (options_.layer < 0 || options_.layer >= sizes.encoder_layers)
    throw ConfigError("sisa: no encoder layer " + std::to_string(options_.layer) + " (the model has " +
                      std::to_string(sizes.encoder_layers) + "; layers count from 0)");
  head_ = options_.head < 0 ? sizes.heads + options_.head : options_.head;
  if (head_ < 0 || head_ >= sizes.heads) throw ConfigError("sisa: no head " + std::to_string(options_.head));
  if (options_.activation != "leaky_relu" && options_.activation != "none")
    throw ConfigError("sisa: activation is leaky_relu or none, not '" + options_.activation + "'");
  const int64_t d = options_.dim > 0 ? options_.dim : sizes.model_dim / sizes.heads;
  query = register_module("query", torch::nn::Linear(sizes.model_dim, d));
  key = register_module("key", torch::nn::Linear(sizes.model_dim, d));
  // U starts near the identity's scale for unit-variance projections: (W_q x)^T U (W_k x) ~ O(1)
  bilinear = register_parameter("bilinear", torch::randn({d, d}) / static_cast<double>(d));
  key_bias = register_parameter("key_bias", torch::zeros({d}));
}

torch::Tensor SisaHeadImpl::modify(const torch::Tensor& scores, const torch::Tensor& query_input, const SeamContext& context) {
  // the "feed-forward layer" of the paper's description: linear, then (as the released code) a
  // leaky ReLU with PyTorch's default slope 0.01
  auto q = query(query_input), k = key(query_input);                            // (B, S, d)
  if (options_.activation == "leaky_relu") {
    q = torch::leaky_relu(q, 0.01);
    k = torch::leaky_relu(k, 0.01);
  }
  auto arcs = torch::matmul(torch::matmul(q, bilinear), k.transpose(1, 2))      // (B, S, S)
              + torch::matmul(k, key_bias).unsqueeze(1);
  if (options_.loss && context.output) add_parent_attention_loss(arcs, context);
  auto index = torch::tensor({head_}, torch::TensorOptions().dtype(torch::kInt64).device(scores.device()));
  return scores.index_copy(1, index, arcs.unsqueeze(1).to(scores.dtype()));
}

}  // namespace synmt
