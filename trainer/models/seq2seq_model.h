#pragma once
// The interface every model family implements: teacher-forced scoring for training, and an
// incremental encode/step API for search. Decoder state is a named set of tensors whose first
// dimension is the hypothesis, so that search can reorder any family's state the same way.
#include <torch/nn/module.h>
#include <torch/types.h>

#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

namespace synmt {

// A batch of source sentences: token ids (B, S) padded with Vocab::kPad, lengths (B), and per-token
// side inputs (B, S) that a family may read — dependency parent positions, labels, POS — under the
// names of kSourceFeature*. Families that do not use a feature ignore it.
struct SourceInput {
  torch::Tensor tokens, lengths;
  std::map<std::string, torch::Tensor> features;
  int64_t batch_size() const { return tokens.size(0); }
  bool has(const std::string& name) const { return features.count(name) > 0; }
};
inline constexpr const char* kSourceFeatureParentPosition = "parent_position";  // float, Pascal's middle position
inline constexpr const char* kSourceFeatureParentFirst = "parent_first";        // int64, SISA's parent sub-word
inline constexpr const char* kSourceFeatureLabel = "label";                      // int64 dependency label id

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
  // Log-probabilities (B, T, V) of tgt_out given src and tgt_in (teacher forcing).
  virtual torch::Tensor forward(const SourceInput& src, const torch::Tensor& tgt_in) = 0;
  virtual DecodeState encode(const SourceInput& src) = 0;
  // Log-probabilities (N, V) of the next token for each of the N hypotheses in `state`. Families
  // with an attention over the source also leave it in state["attention"] (N, S) for this step
  // (search collects it for attention dumps).
  virtual torch::Tensor step(DecodeState& state, const torch::Tensor& prev_tokens) = 0;
  // The family name and resolved options: what the checkpoint stores to rebuild the model.
  virtual nlohmann::json describe() const = 0;
};

}  // namespace synmt
