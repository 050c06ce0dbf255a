#pragma once
// Transformer (Vaswani et al. 2017) as Pascal's baseline (PAPERS.md §2): sinusoidal positions,
// scaled embeddings, tied target embeddings (optionally all embeddings for a joint vocabulary),
// post- or pre-norm. Variants hook into the encoder: per-layer score hooks rewrite chosen heads
// (Pascal, SISA) and SourceInput's features carry the per-token side inputs they read.
#include <torch/nn/module.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/normalization.h>

#include <vector>

#include <nlohmann/json.hpp>

#include "trainer/models/seq2seq_model.h"
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
  }
  static TransformerOptions from_json(const nlohmann::json& j);
  nlohmann::json to_json() const;
};

class TransformerModel : public Seq2SeqModel {
 public:
  explicit TransformerModel(TransformerOptions options);
  torch::Tensor forward(const SourceInput& src, const torch::Tensor& tgt_in) override;
  DecodeState encode(const SourceInput& src) override;
  torch::Tensor step(DecodeState& state, const torch::Tensor& prev_tokens) override;
  nlohmann::json describe() const override;

  // Installs a hook on encoder layer `layer` (0-based) self-attention scores; an empty function
  // removes it. This is how Pascal / SISA variants modify chosen heads without forking the model.
  void set_encoder_score_hook(int64_t layer, AttentionScoreHook hook);
  const TransformerOptions& options() const { return options_; }

 private:
  torch::Tensor embed(torch::nn::Embedding& table, const torch::Tensor& tokens, int64_t first_position);
  torch::Tensor positions_;  // sinusoidal table on the model's device; not a parameter or buffer
  torch::Tensor encode_memory(const SourceInput& src, torch::Tensor& src_allowed);
  torch::Tensor output_log_probs(const torch::Tensor& x);

  TransformerOptions options_;
  torch::nn::Embedding src_embed{nullptr}, tgt_embed{nullptr};
  std::vector<TransformerEncoderLayer> encoder_layers;
  std::vector<TransformerDecoderLayer> decoder_layers;
  torch::nn::LayerNorm encoder_norm{nullptr}, decoder_norm{nullptr};  // pre-norm only
  torch::nn::Linear output_proj{nullptr};                             // only when not tied
  torch::nn::Dropout dropout{nullptr};
  std::vector<AttentionScoreHook> encoder_hooks_;
};

}  // namespace synmt
