#include "trainer/train/blackout.h"

#include <cmath>
#include <limits>

#include "core/error.h"

namespace synmt {

torch::Tensor unigram_noise(const std::vector<int64_t>& counts, double alpha) {
  auto q = torch::tensor(std::vector<double>(counts.begin(), counts.end()), torch::kFloat64).pow(alpha);
  q.masked_fill_(torch::tensor(std::vector<double>(counts.begin(), counts.end()), torch::kFloat64).eq(0), 0.0);
  const double total = q.sum().item<double>();
  if (total <= 0) throw ConfigError("blackout: the training targets have no tokens to draw noise from");
  return (q / total).to(torch::kFloat32);
}

torch::Tensor draw_negatives(const torch::Tensor& noise, int64_t sentences, int64_t samples) {
  return draw_negatives(noise, sentences, samples, noise.gt(0).sum().item<int64_t>());
}

torch::Tensor draw_negatives(const torch::Tensor& noise, int64_t sentences, int64_t samples, int64_t available) {
  const int64_t k = std::min(samples, available);
  if (k < 1) throw ConfigError("blackout: no token has noise probability > 0");
  return torch::multinomial(noise.unsqueeze(0).expand({sentences, noise.size(0)}), k, /*replacement=*/false);
}

BlackoutTerms blackout_loss(const torch::Tensor& hidden, const torch::Tensor& weight, const torch::Tensor& targets, int64_t pad,
                            const torch::Tensor& noise, const torch::Tensor& negatives, bool discriminative) {
  const auto h = hidden.to(torch::kFloat32);
  const auto w = weight.to(torch::kFloat32);
  const auto log_q = noise.to(h.device()).clamp_min(1e-30).log();
  const auto safe_targets = targets.clamp_min(0);
  // weighted scores s_j - log q_j of the target (B, T) and of the sentence's negatives (B, T, K)
  auto target_score = (h * w.index_select(0, safe_targets.reshape({-1})).view(h.sizes())).sum(-1) - log_q.index({safe_targets});
  auto negative_rows = w.index_select(0, negatives.reshape({-1})).view({negatives.size(0), negatives.size(1), w.size(1)});
  auto negative_score = torch::bmm(h, negative_rows.transpose(1, 2)) - log_q.index({negatives}).unsqueeze(1);
  auto is_target = negatives.unsqueeze(1).eq(targets.unsqueeze(2));  // a negative that is the target is left out
  negative_score = negative_score.masked_fill(is_target, -std::numeric_limits<float>::infinity());
  auto log_z = torch::logsumexp(torch::cat({target_score.unsqueeze(2), negative_score}, 2), 2);
  auto log_p_target = target_score - log_z;
  auto real = targets.ne(pad).to(h.dtype());
  BlackoutTerms terms;
  terms.target_nll = -(log_p_target * real).sum().detach();
  auto objective = log_p_target;
  if (discriminative) {
    // log(1 - p~(j)) = log(-expm1(log p~(j))); exactly 0 for a left-out negative (p~ = 0)
    auto log_p_negative = negative_score - log_z.unsqueeze(2);
    auto log_not = torch::log(-torch::expm1(log_p_negative.clamp_max(-1e-7)));
    objective = objective + log_not.masked_fill(is_target, 0.0).sum(2);
  }
  terms.objective = -(objective * real).sum();
  return terms;
}

}  // namespace synmt
