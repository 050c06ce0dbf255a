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

namespace synmt {

// What a caller wants from forward(); computing less is cheaper.
struct ForwardRequest {
  bool log_probs = true;   // false: only `hidden` (a sampled-softmax criterion projects what it needs)
  bool analysis = false;   // fill ModelOutput::analysis (teacher-forced dumps)
};

struct ModelOutput {
  torch::Tensor log_probs;  // (B, T, V), when requested
  torch::Tensor hidden;     // (B, T, D): the states the output layer projects
  // The output layer's weight (V, D) (no bias), from families that support a sampled-softmax
  // criterion (BlackOut): logits = hidden W^T.
  torch::Tensor output_weight;
  // Named auxiliary losses, each summed over its own units (tokens, arcs) like the token loss;
  // the criterion weights them and normalises everything by the target token count.
  std::map<std::string, torch::Tensor> aux_losses;
  // Named analysis tensors, first dimension the sentence (see docs/architecture.md for each name).
  std::map<std::string, torch::Tensor> analysis;
};

// Where training stands when an update starts; a model that derives something from it (a
// temperature schedule) keeps the result in a buffer so checkpoints, resume and decoding agree.
struct TrainingContext {
  int64_t update = 0;          // updates done before this one
  int epoch = 1;               // 1-based
  double epoch_fraction = 0;   // share of this epoch's batches consumed
  int64_t updates_per_epoch = 0;
};

struct DecodeState {
  std::map<std::string, torch::Tensor> tensors;
  // Keys whose rows are the same for every hypothesis of a source sentence (the encoder memory,
  // cross-attention keys and values, source masks): following beams within a sentence leaves
  // them as they are, so follow_beams() skips them (beam search copied them every step).
  std::set<std::string> per_sentence;
  torch::Tensor& operator[](const std::string& k) { return tensors[k]; }
  // Selects / repeats hypotheses: every tensor is index_select-ed along dim 0.
  void reorder(const torch::Tensor& index) {
    for (auto& [name, t] : tensors) select(t, index);
  }
  // The same for an index that maps each hypothesis to one of the same sentence.
  void follow_beams(const torch::Tensor& index) {
    for (auto& [name, t] : tensors)
      if (!per_sentence.count(name)) select(t, index);
  }

 private:
  static void select(torch::Tensor& t, const torch::Tensor& index) {
    if (t.defined()) t = t.index_select(0, index.device() == t.device() ? index : index.to(t.device()));
  }
};

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
};

// Throws a ConfigError unless `src` carries every feature the model needs.
void check_required_features(const Seq2SeqModel& model, const SourceInput& src, const std::string& where);

}  // namespace synmt
