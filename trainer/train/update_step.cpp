#include "trainer/train/update_step.h"

#include <torch/nn/utils/clip_grad.h>

#include <algorithm>
#include <limits>

#include "core/special_tokens.h"
#include "trainer/autocast.h"

#include "core/error.h"

namespace synmt {

LossNormalisation parse_loss_normalisation(const std::string& name) {
  if (name == "target_tokens") return LossNormalisation::kTargetTokens;
  if (name == "sentences") return LossNormalisation::kSentences;
  throw ConfigError("train.loss_normalisation: '" + name + "' is none of target_tokens | sentences");
}

UpdateTotals UpdateStep::run(const std::vector<std::vector<int64_t>>& plan, int64_t first, torch::optim::Optimizer& optimizer,
                             bool check_features) {
  optimizer.zero_grad();
  UpdateTotals totals;
  int64_t local_tokens = 0, local_sentences = 0;
  torch::Tensor loss_acc, nll_acc;  // on the device; read once per update
  std::map<std::string, torch::Tensor> aux_acc;
  const auto n = static_cast<int64_t>(plan.size());
  int64_t consumed = 0;
  for (; consumed < options_.update_freq && first + consumed < n; ++consumed) {
    const auto& batch_ids = plan[static_cast<std::size_t>(first + consumed)];
    std::vector<int64_t> ids;  // this rank's share of the batch
    for (std::size_t k = static_cast<std::size_t>(comm_.rank()); k < batch_ids.size(); k += static_cast<std::size_t>(comm_.size()))
      ids.push_back(batch_ids[k]);
    if (ids.empty()) continue;
    Batch cpu_batch = batches_.make_batch(ids);
    local_tokens += cpu_batch.target_tokens;  // counted on the host: no device round trip
    local_sentences += static_cast<int64_t>(ids.size());
    Batch b = to_device(std::move(cpu_batch), device_);
    if (check_features && consumed == 0) check_required_features(model_, b.source, "training");
    CriterionTerms v;
    {  // bf16: the forward pass and the loss under autocast; backward follows the recorded casts
      AutocastScope amp(device_.type(), torch::kBFloat16, options_.bf16);
      v = criterion_(model_.forward(b.source, b.tgt_in, request_), b.tgt_out, special::kPad);
    }
    v.objective.backward();  // summed over tokens; normalised by the global count below
    loss_acc = loss_acc.defined() ? loss_acc + v.objective.detach() : v.objective.detach();
    nll_acc = nll_acc.defined() ? nll_acc + v.nll_sum : v.nll_sum;
    for (auto& [name, value] : v.aux) aux_acc[name] = aux_acc.count(name) ? aux_acc[name] + value : value;
  }
  totals.batches = consumed;
  double local_loss = 0;
  if (loss_acc.defined()) {  // one copy to the host per update
    std::vector<torch::Tensor> host{loss_acc.to(torch::kFloat64), nll_acc.to(torch::kFloat64)};
    for (auto& [name, value] : aux_acc) host.push_back(value.to(torch::kFloat64));
    auto values = torch::stack(host).to(torch::kCPU);
    local_loss = values[0].item<double>();
    totals.local_nll_sum = values[1].item<double>();
    int64_t k = 2;
    for (auto& [name, value] : aux_acc) totals.local_aux[name] = values[k++].item<double>();
  }
  std::vector<torch::Tensor> grads;
  for (auto& p : model_.parameters()) {
    if (!p.grad().defined()) p.mutable_grad() = torch::zeros_like(p);
    grads.push_back(p.grad());
  }
  totals.target_tokens = comm_.allreduce_sum(static_cast<double>(local_tokens));
  totals.sentences = comm_.allreduce_sum(static_cast<double>(local_sentences));
  comm_.allreduce_sum(grads);
  const double divisor = options_.normalise_by == LossNormalisation::kSentences ? totals.sentences : totals.target_tokens;
  for (auto& g : grads) g.div_(std::max(1.0, divisor));
  // clip_norm 0 = no clipping (the norm is still computed: logs, non-finite check)
  totals.grad_norm = torch::nn::utils::clip_grad_norm_(
      model_.parameters(), options_.clip_norm > 0 ? options_.clip_norm : std::numeric_limits<double>::infinity());
  totals.loss_sum = comm_.allreduce_sum(local_loss);
  return totals;
}

}  // namespace synmt
