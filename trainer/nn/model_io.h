#pragma once
// The data a model exchanges with its callers and its layers: what forward() is asked for and
// returns, the training context, and the decoder state search reorders. Below nn/ (layers such as
// the input-feeding decoder fill them) and models/ (Seq2SeqModel, models/seq2seq_model.h, is the
// interface over them), so that no layer reaches up to the model interface.
#include <torch/types.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>

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

}  // namespace synmt
