#pragma once
// The target side the input-feeding families share (RNN attention, SA-NMT, latent graphs,
// LGP-NMT): target embeddings, the input-feeding decoder, and the output layer, tied to the target
// embeddings or projected. Not a module: each family registers the three modules itself (their
// names and registration order are its checkpoints' parameter names and its seeded
// initialisation) and hands them here, so that teacher forcing, one search step and the output
// layer are written once.
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/types.h>

#include <map>
#include <string>

#include "trainer/nn/input_feeding_decoder.h"
#include "trainer/nn/model_io.h"

namespace synmt {

struct InputFeedingTarget {
  torch::nn::Embedding embed{nullptr};
  InputFeedingDecoder decoder{nullptr};
  torch::nn::Linear projection{nullptr};       // unset: logits through the target embeddings (tied)
  torch::nn::Dropout embed_dropout{nullptr};   // on the embedded targets in teacher forcing; unset: none

  // Output scores (..., V) of decoder outputs u (..., E).
  torch::Tensor logits(const torch::Tensor& u);
  // Teacher forcing: out.hidden (B, T, E) and, as the request asks, out.log_probs and
  // out.analysis["source_attention"]; returns what the decoder recorded (record's keys, which a
  // family may extend, e.g. "gate/syntax", plus "attention") for the family's own analysis.
  std::map<std::string, torch::Tensor> teacher_forced(DecodeState& state, const torch::Tensor& tgt_in, const ForwardRequest& request,
                                                      ModelOutput& out, std::map<std::string, torch::Tensor> record = {});
  // One search step: log-probabilities (N, V) of the next token.
  torch::Tensor step(DecodeState& state, const torch::Tensor& prev_tokens);
};

}  // namespace synmt
