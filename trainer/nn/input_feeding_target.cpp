#include "trainer/nn/input_feeding_target.h"

namespace synmt {

torch::Tensor InputFeedingTarget::logits(const torch::Tensor& u) {
  if (projection) return projection->forward(u);
  return torch::matmul(u, embed->weight.t());
}

std::map<std::string, torch::Tensor> InputFeedingTarget::teacher_forced(DecodeState& state, const torch::Tensor& tgt_in,
                                                                        const ForwardRequest& request, ModelOutput& out,
                                                                        std::map<std::string, torch::Tensor> record) {
  auto embedded = embed->forward(tgt_in);
  if (embed_dropout) embedded = embed_dropout->forward(embedded);
  record["attention"] = torch::Tensor();
  out.hidden = decoder->teacher_forced(state, embedded, request.analysis ? &record : nullptr);
  if (request.analysis) out.analysis["source_attention"] = record["attention"];
  // one large output projection for all steps is much faster than one per step
  if (request.log_probs) out.log_probs = torch::log_softmax(logits(out.hidden), -1);
  return record;
}

torch::Tensor InputFeedingTarget::step(DecodeState& state, const torch::Tensor& prev_tokens) {
  return torch::log_softmax(logits(decoder->step(state, embed->forward(prev_tokens))), -1);
}

}  // namespace synmt
