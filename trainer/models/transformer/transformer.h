#pragma once
// Transformer (Vaswani et al. 2017) as Pascal's baseline (Bugliarello & Okazaki 2020): sinusoidal positions,
// scaled embeddings, tied target embeddings (optionally all embeddings for a joint vocabulary),
// post- or pre-norm. Syntax variants are configuration: score modifiers rewrite chosen heads of an
// encoder layer (Pascal, SISA) and embedding inputs rewrite the token embeddings (S&H), both
// built from the options (syntax_modules.h) and reading SourceInput's features.
#include <torch/nn/module.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/normalization.h>

#include <vector>

#include <nlohmann/json.hpp>

#include "trainer/models/seq2seq_model.h"
#include "trainer/models/transformer/syntax_modules.h"
#include "trainer/nn/transformer_layers.h"

namespace synmt {

struct TransformerOptions {
  int64_t src_vocab = 0, tgt_vocab = 0;  // filled from the vocabularies, not from configs
  int64_t model_dim = 512, heads = 8, ffn_dim = 2048;
  int64_t encoder_layers = 6, decoder_layers = 6;
  double dropout = 0.1, attention_dropout = 0.0, relu_dropout = 0.0;
  bool pre_norm = false;
  bool tie_target_embeddings = true;  // decoder input embeddings = output projection
  bool share_all_embeddings = false;  // also the source embeddings (joint vocabulary only)
  int64_t src_labels = 0, src_upos = 0;  // inventory sizes, filled from the dataset like the vocabularies
  nlohmann::json score_modifiers = nlohmann::json::array();   // [{"kind": ..., ...}] (syntax_modules.h)
  nlohmann::json embedding_inputs = nlohmann::json::array();  // [{"kind": ..., ...}]

  TransformerLayerOptions layer() const {
    return {model_dim, heads, ffn_dim, dropout, attention_dropout, relu_dropout, pre_norm};
  }
  // The JSON keys, once: from_json / to_json (core/config.h) visit them.
  template <class Self, class Visit>
  static void fields(Self& o, Visit&& v) {
    v("src_vocab", o.src_vocab);
    v("tgt_vocab", o.tgt_vocab);
    v("model_dim", o.model_dim);
    v("heads", o.heads);
    v("ffn_dim", o.ffn_dim);
    v("encoder_layers", o.encoder_layers);
    v("decoder_layers", o.decoder_layers);
    v("dropout", o.dropout);
    v("attention_dropout", o.attention_dropout);
    v("relu_dropout", o.relu_dropout);
    v("pre_norm", o.pre_norm);
    v("tie_target_embeddings", o.tie_target_embeddings);
    v("share_all_embeddings", o.share_all_embeddings);
    v("src_labels", o.src_labels);
    v("src_upos", o.src_upos);
    v("score_modifiers", o.score_modifiers);
    v("embedding_inputs", o.embedding_inputs);
  }
  static TransformerOptions from_json(const nlohmann::json& j);
  nlohmann::json to_json() const;
};

class TransformerModel : public Seq2SeqModel {
 public:
  static constexpr const char* kFamily = "transformer";  // the family's name, here only
  explicit TransformerModel(TransformerOptions options);
  ModelOutput forward(const SourceInput& src, const torch::Tensor& tgt_in, const ForwardRequest& request = {}) override;
  DecodeState encode(const SourceInput& src) override;
  torch::Tensor step(DecodeState& state, const torch::Tensor& prev_tokens) override;
  nlohmann::json describe() const override;
  std::set<std::string> required_features() const override;
  // source_attention (tgt src): the last decoder layer's attention over the source, mean of heads
  // (what beam search dumps); encoder_attention_<l> (heads src src): encoder layer l's self-attention
  std::map<std::string, std::string> analysis_axes() const override;
  const TransformerOptions& options() const { return options_; }

 private:
  // scaled embeddings -> embedding inputs (source only) -> + positions -> dropout
  torch::Tensor embed(torch::nn::Embedding& table, const torch::Tensor& tokens, int64_t first_position,
                      const SeamContext* source = nullptr);
  torch::Tensor positions_;  // sinusoidal table on the model's device; not a parameter or buffer
  // output: where seams add auxiliary losses (null when decoding); with analysis, also each encoder
  // layer's self-attention
  torch::Tensor encode_memory(const SourceInput& src, torch::Tensor& src_allowed, ModelOutput* output, bool analysis = false);
  torch::Tensor output_log_probs(const torch::Tensor& x);

  TransformerOptions options_;
  torch::nn::Embedding src_embed{nullptr}, tgt_embed{nullptr};
  std::vector<TransformerEncoderLayer> encoder_layers;
  std::vector<TransformerDecoderLayer> decoder_layers;
  torch::nn::LayerNorm encoder_norm{nullptr}, decoder_norm{nullptr};  // pre-norm only
  torch::nn::Linear output_proj{nullptr};                             // only when not tied
  torch::nn::Dropout dropout{nullptr};
  std::vector<std::shared_ptr<ScoreModifierImpl>> score_modifiers_;
  std::vector<std::shared_ptr<EmbeddingInputImpl>> embedding_inputs_;
};

}  // namespace synmt
