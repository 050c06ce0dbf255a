#include "trainer/decode/ensemble.h"

#include "core/error.h"

namespace synmt {

namespace {
std::string prefix(std::size_t member) { return "m" + std::to_string(member) + "/"; }
}  // namespace

EnsembleModel::EnsembleModel(std::vector<std::shared_ptr<Seq2SeqModel>> members) : members_(std::move(members)) {
  if (members_.empty()) throw ConfigError("an ensemble needs at least one model");
  for (std::size_t i = 0; i < members_.size(); ++i) register_module("member_" + std::to_string(i), members_[i]);
}

ModelOutput EnsembleModel::forward(const SourceInput& src, const torch::Tensor& tgt_in, const ForwardRequest& request) {
  if (members_.size() == 1) return members_.front()->forward(src, tgt_in, request);
  ModelOutput out;
  for (std::size_t i = 0; i < members_.size(); ++i) {
    ModelOutput own = members_[i]->forward(src, tgt_in, request);
    if (own.log_probs.defined()) out.log_probs = out.log_probs.defined() ? out.log_probs + own.log_probs : own.log_probs;
    for (auto& [name, t] : own.aux_losses) out.aux_losses[prefix(i) + name] = t;
    for (auto& [name, t] : own.analysis) out.analysis[prefix(i) + name] = t;
  }
  if (out.log_probs.defined()) out.log_probs = out.log_probs / static_cast<double>(members_.size());
  return out;
}

std::set<std::string> EnsembleModel::required_features() const {
  std::set<std::string> all;
  for (const auto& m : members_) {
    auto own = m->required_features();
    all.insert(own.begin(), own.end());
  }
  return all;
}

std::map<std::string, std::string> EnsembleModel::analysis_axes() const {
  if (members_.size() == 1) return members_.front()->analysis_axes();
  std::map<std::string, std::string> all;
  for (std::size_t i = 0; i < members_.size(); ++i)
    for (const auto& [name, axes] : members_[i]->analysis_axes()) all[prefix(i) + name] = axes;
  return all;
}

DecodeState EnsembleModel::encode(const SourceInput& src) {
  DecodeState state;
  for (std::size_t i = 0; i < members_.size(); ++i) {
    DecodeState own = members_[i]->encode(src);
    for (auto& [name, t] : own.tensors) state.tensors[prefix(i) + name] = t;
    for (const auto& name : own.per_sentence) state.per_sentence.insert(prefix(i) + name);
  }
  return state;
}

torch::Tensor EnsembleModel::step(DecodeState& state, const torch::Tensor& prev_tokens) {
  torch::Tensor sum;
  std::vector<torch::Tensor> attentions;
  for (std::size_t i = 0; i < members_.size(); ++i) {
    const std::string p = prefix(i);
    DecodeState own;
    for (auto it = state.tensors.lower_bound(p); it != state.tensors.end() && it->first.compare(0, p.size(), p) == 0; ++it)
      own.tensors[it->first.substr(p.size())] = it->second;
    auto lp = members_[i]->step(own, prev_tokens);
    for (auto& [name, t] : own.tensors) state.tensors[p + name] = t;
    if (own.tensors.count("attention")) attentions.push_back(own.tensors["attention"]);
    sum = sum.defined() ? sum + lp : lp;
  }
  // the ensemble's source attention (dumps, UnkRep): the members' mean over the source positions
  // they share (a member may attend to one more position, its </s>)
  if (attentions.size() == members_.size()) {
    int64_t width = attentions.front().size(1);
    for (const auto& a : attentions) width = std::min(width, a.size(1));
    torch::Tensor mean;
    for (const auto& a : attentions) mean = mean.defined() ? mean + a.narrow(1, 0, width) : a.narrow(1, 0, width);
    state.tensors["attention"] = mean / static_cast<double>(attentions.size());
  }
  return members_.size() == 1 ? sum : sum / static_cast<double>(members_.size());
}

nlohmann::json EnsembleModel::describe() const {
  nlohmann::json members = nlohmann::json::array();
  for (const auto& m : members_) members.push_back(m->describe());
  return {{"family", "ensemble"}, {"members", members}};
}

}  // namespace synmt
