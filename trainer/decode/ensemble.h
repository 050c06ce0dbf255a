#pragma once
// An ensemble of checkpoints decoded as one model: each member keeps its own state (keys prefixed
// by the member index) and the next-token scores are the mean of the members' log-probabilities.
// An ensemble of one model is that model exactly.
#include <memory>
#include <vector>

#include "trainer/models/seq2seq_model.h"

namespace synmt {

class EnsembleModel : public Seq2SeqModel {
 public:
  explicit EnsembleModel(std::vector<std::shared_ptr<Seq2SeqModel>> members);
  // log_probs: the mean of the members'; aux_losses and analysis: each member's under "m<i>/";
  // hidden: the only member's (members' hidden sizes may differ).
  ModelOutput forward(const SourceInput& src, const torch::Tensor& tgt_in, const ForwardRequest& request = {}) override;
  DecodeState encode(const SourceInput& src) override;
  torch::Tensor step(DecodeState& state, const torch::Tensor& prev_tokens) override;
  nlohmann::json describe() const override;
  std::set<std::string> required_features() const override;
  std::map<std::string, std::string> analysis_axes() const override;

 private:
  std::vector<std::shared_ptr<Seq2SeqModel>> members_;
};

}  // namespace synmt
