#pragma once
// The Transformer's syntax modules, built from model options (TransformerOptions::score_modifiers
// and ::embedding_inputs, each entry {"kind": K, ...K's options}). One explicit list of kinds in
// syntax_modules.cpp; a paper variant is an entry in a preset's options.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <torch/nn/modules/embedding.h>

#include "trainer/nn/syntax_seams.h"

namespace synmt {

struct SyntaxModuleSizes {  // what a module may need to know about the model
  int64_t model_dim = 0, heads = 0, encoder_layers = 0;
  int64_t src_labels = 0, src_upos = 0;  // inventory sizes (filled from the dataset)
};

std::shared_ptr<ScoreModifierImpl> make_score_modifier(const nlohmann::json& spec, const SyntaxModuleSizes& sizes);
std::shared_ptr<EmbeddingInputImpl> make_embedding_input(const nlohmann::json& spec, const SyntaxModuleSizes& sizes);
// The spec with every default filled in (validates kinds, keys and types).
nlohmann::json complete_score_modifier(const nlohmann::json& spec);
nlohmann::json complete_embedding_input(const nlohmann::json& spec);
// Adds to context.output the auxiliary loss "parent_attention": the cross-entropy of one head's
// attention scores (B, S, S) towards each token's parent (feature parent_first), summed over the real
// source tokens (parent_bias with `loss`, SISA).
void add_parent_attention_loss(const torch::Tensor& head_scores, const SeamContext& context);

// parent_bias: a learned bias b_h added, in each chosen head h of one encoder layer, to the score
// of every token's parent (its first sub-word: feature parent_first). With `loss`, the auxiliary
// loss "parent_attention" is the cross-entropy of the first chosen head's attention towards the
// parent, summed over source tokens (supervised attention, as SISA trains its head).
struct ParentBiasOptions {
  std::string kind = "parent_bias";
  int64_t layer = 0;
  std::vector<int64_t> heads;  // empty: all heads
  bool loss = false;
  template <class Self, class Visit>
  static void fields(Self& o, Visit&& v) {
    v("kind", o.kind);
    v("layer", o.layer);
    v("heads", o.heads);
    v("loss", o.loss);
  }
};

class ParentBiasImpl : public ScoreModifierImpl {
 public:
  ParentBiasImpl(ParentBiasOptions options, const SyntaxModuleSizes& sizes);
  torch::Tensor modify(const torch::Tensor& scores, const torch::Tensor& query_input, const SeamContext& context) override;
  std::set<std::string> required_features() const override { return {kSourceFeatureParentFirst}; }
  int64_t layer() const override { return options_.layer; }

 private:
  ParentBiasOptions options_;
  std::vector<int64_t> heads_;
  torch::Tensor bias;  // (chosen heads)
};

// label_embedding (Sennrich & Haddow 2016 as Pascal's +S&H baseline): an embedding of the token's
// dependency label (feature label; every sub-word carries its word's label) overwrites the last
// `dim` dimensions of the scaled token embedding.
struct LabelEmbeddingOptions {
  std::string kind = "label_embedding";
  int64_t dim = 10;
  template <class Self, class Visit>
  static void fields(Self& o, Visit&& v) {
    v("kind", o.kind);
    v("dim", o.dim);
  }
};

class LabelEmbeddingImpl : public EmbeddingInputImpl {
 public:
  LabelEmbeddingImpl(LabelEmbeddingOptions options, const SyntaxModuleSizes& sizes);
  torch::Tensor apply(const torch::Tensor& embedded, const SeamContext& context) override;
  std::set<std::string> required_features() const override { return {kSourceFeatureLabel}; }

 private:
  LabelEmbeddingOptions options_;
  torch::nn::Embedding table{nullptr};
};

}  // namespace synmt
