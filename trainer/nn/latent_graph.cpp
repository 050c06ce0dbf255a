#include "trainer/nn/latent_graph.h"

#include <cmath>
#include <limits>

#include "core/error.h"

namespace synmt {

LatentGraphImpl::LatentGraphImpl(const LatentGraphOptions& o) : options_(o) {
  if (o.input_dim <= 0 || o.hidden <= 0 || o.key_dim <= 0) throw ConfigError("latent graph: sizes must be positive");
  lstm = register_module("lstm", BiLstmEncoder(BiLstmEncoderOptions{o.input_dim, o.hidden, 1, 0.0}));
  // Eq. 2, k_i = W_K s_i, q_i = W_Q s_i: no biases. A query bias would add b_Q . k_k to every
  // dependent's potential for head k alike, a head popularity the paper's model does not have.
  query = register_module("query", torch::nn::Linear(torch::nn::LinearOptions(2 * o.hidden, o.key_dim).bias(false)));
  key = register_module("key", torch::nn::Linear(torch::nn::LinearOptions(2 * o.hidden, o.key_dim).bias(false)));
}

torch::Tensor LatentGraphImpl::forward(const torch::Tensor& embedded, const torch::Tensor& lengths) {
  auto h = lstm(embedded, lengths);
  const int64_t S = embedded.size(1);
  auto lambda = torch::bmm(query(h), key(h).transpose(1, 2)) / std::sqrt(static_cast<double>(options_.key_dim));
  auto real = length_mask(lengths, S, embedded.device());
  auto eye = torch::eye(S, torch::TensorOptions().dtype(torch::kBool).device(embedded.device())).unsqueeze(0);
  auto admissible = real.unsqueeze(2).logical_and(real.unsqueeze(1)).logical_and(eye.logical_not());
  return lambda.masked_fill(admissible.logical_not(), -std::numeric_limits<float>::infinity());
}

torch::Tensor concrete_graph(const torch::Tensor& lambda, double tau, bool noise) {
  auto has_head = torch::isfinite(lambda).any(-1, /*keepdim=*/true);  // (B, S, 1)
  auto logits = lambda;
  if (noise) {
    // standard Gumbel noise -log(-log U), U kept off 0 and 1 so that g is finite
    auto u = torch::rand_like(lambda).clamp(1e-10, 1.0 - 1e-7);
    logits = logits - torch::log(-torch::log(u));
  }
  // rows with no admissible head: a finite dummy row, zeroed after the softmax
  logits = logits.masked_fill(has_head.logical_not(), 0.0);
  return torch::softmax(logits / tau, -1) * has_head.to(lambda.dtype());
}

}  // namespace synmt
