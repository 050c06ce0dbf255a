#pragma once
// The training objective beside the model (fairseq's criteria): label-smoothed NLL of the target
// tokens plus the model's named auxiliary losses, each with a configured weight. Every term is
// returned separately so that the progress line and metrics.jsonl log each of them.
#include <torch/types.h>

#include <map>
#include <string>
#include <vector>

#include "trainer/models/seq2seq_model.h"
#include "trainer/train/blackout.h"

namespace synmt {

struct CriterionOptions {
  double label_smoothing = 0.0;
  // weight of each auxiliary loss by name; a term the model returns but this map does not name
  // gets weight 1
  std::map<std::string, double> aux_weights;
  // BlackOut instead of the full softmax (label smoothing does not apply): needs the model's
  // hidden states and output weight; `noise` is q over the target vocabulary.
  bool blackout = false;
  BlackoutOptions blackout_options;
  torch::Tensor noise;

  // Switches to BlackOut with K samples drawn from q, the unigram distribution of the training
  // targets raised to alpha (every sentence also ends in </s>), over tgt_vocab entries.
  void use_blackout(int64_t samples, double alpha, const std::vector<int32_t>& tgt_tokens, std::size_t sentences, int64_t tgt_vocab);
};

struct CriterionTerms {
  torch::Tensor objective;  // minimised: summed over target tokens (and the auxiliary terms' units)
  torch::Tensor nll_sum;    // plain NLL summed over target tokens (perplexity), detached
  std::map<std::string, torch::Tensor> aux;  // each auxiliary loss as returned (unweighted), detached
};

class Criterion {
 public:
  explicit Criterion(CriterionOptions options);
  CriterionTerms operator()(const ModelOutput& output, const torch::Tensor& tgt_out, int64_t pad) const;
  const CriterionOptions& options() const { return options_; }

 private:
  // BlackOut's noise on the model's device, moved there once (not on every update), and the
  // number of tokens it can draw (counted once on the host)
  const torch::Tensor& noise_on(const torch::Device& device) const;
  CriterionOptions options_;
  int64_t noise_support_ = 0;
  mutable torch::Tensor noise_on_device_;
};

}  // namespace synmt
