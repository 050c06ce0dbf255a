#pragma once
// The interface every model family implements: teacher-forced scoring for training, and an
// incremental encode/step API for search. Decoder state is a named set of tensors whose first
// dimension is the hypothesis, so that search can reorder any family's state the same way.
//
// forward() returns a ModelOutput rather than bare log-probabilities: criteria beside the model
// (train/criterion.h, as fairseq's) combine the token loss with the model's named auxiliary
// losses, a sampled-softmax criterion can work from the hidden states, and analysis tensors
// (structured-attention marginals, gate norms, latent graphs) reach the dump writers.
#include <torch/nn/module.h>
#include <torch/types.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "trainer/data/source_input.h"
#include "trainer/nn/model_io.h"

namespace synmt {

class Seq2SeqModel : public torch::nn::Module {
 public:
  // Teacher forcing: log-probabilities (B, T, V) of tgt_out given src and tgt_in, and whatever
  // else the request asks for.
  virtual ModelOutput forward(const SourceInput& src, const torch::Tensor& tgt_in, const ForwardRequest& request = {}) = 0;
  virtual DecodeState encode(const SourceInput& src) = 0;
  // Log-probabilities (N, V) of the next token for each of the N hypotheses in `state`. Families
  // with an attention over the source also leave it in state["attention"] (N, S) for this step
  // (search collects it for attention dumps).
  virtual torch::Tensor step(DecodeState& state, const torch::Tensor& prev_tokens) = 0;
  // The family name and resolved options: what the checkpoint stores to rebuild the model.
  virtual nlohmann::json describe() const = 0;
  // Source features (kSourceFeature*) the model reads; training, validation and decoding check
  // that every batch carries them.
  virtual std::set<std::string> required_features() const { return {}; }
  // The analysis tensors forward() fills when asked (synmt-translate --dump), each with its axes
  // after the sentence axis, space-separated: "src" (source positions), "tgt" (target positions,
  // </s> included), or a number (a fixed size, e.g. heads). A dump trims src/tgt axes to each
  // sentence's length.
  virtual std::map<std::string, std::string> analysis_axes() const { return {}; }
  // Called before every training update.
  virtual void set_training_context(const TrainingContext& /*context*/) {}
  // synmt-train calls this once after construction: a family whose options name pre-trained
  // parameters (LGP-NMT+'s parser) loads them. Decoding never calls it (the checkpoint has them).
  virtual void load_pretrained() {}
  // The files load_pretrained() reads, so that a training state can tell a run initialised from
  // other pre-trained parameters apart (synmt-train records their digests with the data's).
  virtual std::vector<std::string> pretrained_files() const { return {}; }
};

// Throws a ConfigError unless `src` carries every feature the model needs.
void check_required_features(const Seq2SeqModel& model, const SourceInput& src, const std::string& where);

}  // namespace synmt
