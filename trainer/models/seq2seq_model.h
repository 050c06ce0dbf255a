#pragma once
// The interface every model family implements: teacher-forced scoring for training, and an
// incremental encode/step API for search. Decoder state is a named set of tensors whose first
// dimension is the hypothesis, so that search can reorder any family's state the same way.
#include <torch/nn/module.h>
#include <torch/types.h>

#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace synmt {

struct DecodeState {
  std::map<std::string, torch::Tensor> tensors;
  torch::Tensor& operator[](const std::string& k) { return tensors[k]; }
  // Selects / repeats hypotheses: every tensor is index_select-ed along dim 0.
  void reorder(const torch::Tensor& index) {
    for (auto& [name, t] : tensors)
      if (t.defined()) t = t.index_select(0, index);
  }
};

class Seq2SeqModel : public torch::nn::Module {
 public:
  // Log-probabilities (B, T, V) of tgt_out given src and tgt_in (teacher forcing).
  virtual torch::Tensor forward(const torch::Tensor& src, const torch::Tensor& src_len, const torch::Tensor& tgt_in) = 0;
  virtual DecodeState encode(const torch::Tensor& src, const torch::Tensor& src_len) = 0;
  // Log-probabilities (N, V) of the next token for each of the N hypotheses in `state`.
  virtual torch::Tensor step(DecodeState& state, const torch::Tensor& prev_tokens) = 0;
  // The family name and resolved options: what the checkpoint stores to rebuild the model.
  virtual nlohmann::json describe() const = 0;
};

}  // namespace synmt
