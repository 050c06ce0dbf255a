#pragma once
// The two seams through which syntax variants change a Transformer without forking it:
//  - a ScoreModifier rewrites the pre-softmax scores (B, H, Tq, Tk) of one encoder layer's
//    self-attention (Pascal scales chosen heads by a Gaussian around each token's parent, SISA
//    replaces one by a parent scorer);
//  - an EmbeddingInput rewrites the scaled token embeddings (B, S, D) before positions are added
//    (S&H overwrites their last dimensions with a dependency-label embedding).
// Both are registered submodules built from the model options (a checkpoint rebuilds them), may own
// parameters, read the batch's source features, may add auxiliary losses and analysis tensors to
// the model output, and follow is_training() for training-only behaviour.
#include <torch/nn/module.h>
#include <torch/types.h>

#include <set>
#include <string>

#include "trainer/data/source_input.h"
#include "trainer/nn/model_io.h"

namespace synmt {

struct SeamContext {
  const SourceInput& input;
  ModelOutput* output = nullptr;  // where auxiliary losses / analysis go; null when decoding
};

class ScoreModifierImpl : public torch::nn::Module {
 public:
  // scores: S = QK^T / sqrt(d_k) before the padding mask; query_input: what the layer's attention
  // reads (B, Tq, D). Returns scores of the same shape.
  virtual torch::Tensor modify(const torch::Tensor& scores, const torch::Tensor& query_input, const SeamContext& context) = 0;
  virtual std::set<std::string> required_features() const { return {}; }
  virtual int64_t layer() const = 0;  // 0-based encoder layer
};

class EmbeddingInputImpl : public torch::nn::Module {
 public:
  // embedded: scaled token embeddings (B, S, D), positions not yet added.
  virtual torch::Tensor apply(const torch::Tensor& embedded, const SeamContext& context) = 0;
  virtual std::set<std::string> required_features() const { return {}; }
};

}  // namespace synmt
