#include "trainer/train/criterion.h"

#include "core/error.h"
#include "core/special_tokens.h"
#include "trainer/train/loss.h"

namespace synmt {

void CriterionOptions::use_blackout(int64_t samples, double alpha, const std::vector<int32_t>& tgt_tokens, std::size_t sentences,
                                    int64_t tgt_vocab) {
  std::vector<int64_t> counts(static_cast<std::size_t>(tgt_vocab), 0);
  for (auto t : tgt_tokens)
    if (t >= 0 && static_cast<std::size_t>(t) < counts.size()) ++counts[static_cast<std::size_t>(t)];
  if (counts.size() > static_cast<std::size_t>(special::kEos)) counts[special::kEos] += static_cast<int64_t>(sentences);
  blackout = true;
  blackout_options.samples = samples;
  blackout_options.alpha = alpha;
  noise = unigram_noise(counts, alpha);
}

Criterion::Criterion(CriterionOptions options) : options_(std::move(options)) {
  if (options_.blackout && options_.noise.defined()) noise_support_ = options_.noise.gt(0).sum().item<int64_t>();
}

const torch::Tensor& Criterion::noise_on(const torch::Device& device) const {
  if (!noise_on_device_.defined() || noise_on_device_.device() != device) noise_on_device_ = options_.noise.to(device);
  return noise_on_device_;
}

CriterionTerms Criterion::operator()(const ModelOutput& output, const torch::Tensor& tgt_out, int64_t pad) const {
  CriterionTerms terms;
  if (options_.blackout) {
    if (!output.hidden.defined() || !output.output_weight.defined())
      throw ConfigError("criterion blackout: the model family exposes no output weight (only untied-free families such as lgp support it)");
    const torch::Tensor& noise = noise_on(output.hidden.device());
    auto negatives = draw_negatives(noise, tgt_out.size(0), options_.blackout_options.samples, noise_support_);
    auto b = blackout_loss(output.hidden, output.output_weight, tgt_out, pad, noise, negatives, options_.blackout_options.discriminative);
    terms.objective = b.objective;
    terms.nll_sum = b.target_nll;
  } else {
    if (!output.log_probs.defined())
      throw ConfigError("criterion: the model returned no log-probabilities (a sampled-softmax criterion is not configured)");
    LossTensors token = label_smoothed_nll_tensors(output.log_probs, tgt_out, options_.label_smoothing, pad);
    terms.objective = token.loss;
    terms.nll_sum = token.nll_sum;
  }
  for (const auto& [name, value] : output.aux_losses) {
    auto it = options_.aux_weights.find(name);
    const double weight = it == options_.aux_weights.end() ? 1.0 : it->second;
    auto term = value.to(torch::kFloat32);
    if (weight != 0) terms.objective = terms.objective + weight * term;
    terms.aux[name] = term.detach();
  }
  return terms;
}

}  // namespace synmt
