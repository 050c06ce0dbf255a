#include "trainer/models/transformer/pascal_heads.h"

#include <cmath>

#include "core/config.h"

namespace synmt {

torch::Tensor pascal_scaling(const torch::Tensor& parent_position, int64_t keys, const PascalOptions& o) {
  auto p = parent_position.to(torch::kFloat32);
  auto j = torch::arange(keys, p.options()).view({1, 1, keys});
  auto distance = j - p.unsqueeze(2);  // (B, S, keys): j - p_i
  if (o.parent_only) return (distance.abs() < 1.0).to(torch::kFloat32);
  const double variance = o.sigma_reading == "variance" ? o.sigma : o.sigma * o.sigma;
  return torch::exp(-distance.square() / (2.0 * variance)) / std::sqrt(2.0 * M_PI * variance);
}

PascalHeadsImpl::PascalHeadsImpl(PascalOptions o, const SyntaxModuleSizes& sizes) : options_(std::move(o)) {
  if (options_.layer < 0 || options_.layer >= sizes.encoder_layers)
    throw ConfigError("pascal: no encoder layer " + std::to_string(options_.layer) + " (the model has " +
                      std::to_string(sizes.encoder_layers) + "; layers count from 0)");
  if (options_.sigma_reading != "variance" && options_.sigma_reading != "std")
    throw ConfigError("pascal: sigma_reading must be variance or std, got '" + options_.sigma_reading + "'");
  if (!(options_.sigma > 0)) throw ConfigError("pascal: sigma must be positive");
  if (options_.ignore_prob < 0 || options_.ignore_prob > 1) throw ConfigError("pascal: ignore_prob must be in [0, 1]");
  heads_ = options_.heads;
  if (heads_.empty())
    for (int64_t h = 0; h < sizes.heads; ++h) heads_.push_back(h);
  for (auto h : heads_)
    if (h < 0 || h >= sizes.heads) throw ConfigError("pascal: no head " + std::to_string(h) + " (the model has " + std::to_string(sizes.heads) + ")");
}

torch::Tensor PascalHeadsImpl::modify(const torch::Tensor& scores, const torch::Tensor& /*query_input*/, const SeamContext& context) {
  const auto& parent = context.input.feature(kSourceFeatureParentPosition, "score modifier pascal");
  const int64_t B = scores.size(0), P = static_cast<int64_t>(heads_.size()), T = scores.size(2), S = scores.size(3);
  auto n = pascal_scaling(parent.to(scores.device()).narrow(1, 0, T), S, options_).to(scores.dtype());  // (B, T, S)
  auto scaling = n.unsqueeze(1).expand({B, P, T, S});
  const double q = options_.ignore_prob;
  if (is_training() && q >= 1.0) return scores;  // every row ignored: N = 1 everywhere
  if (is_training() && q > 0.0) {
    // a row N_i becomes all ones with probability q, per head and row (or shared across the heads)
    auto ignore = torch::rand({B, options_.share_ignore_across_heads ? 1 : P, T, 1}, scores.options()) < q;
    scaling = torch::where(ignore, torch::ones_like(scaling), scaling);
  }
  auto index = torch::tensor(heads_, torch::TensorOptions().dtype(torch::kInt64).device(scores.device()));
  // only the chosen heads change; the others are copied bit for bit
  return scores.index_copy(1, index, scores.index_select(1, index) * scaling);
}

}  // namespace synmt
