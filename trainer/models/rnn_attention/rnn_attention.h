#pragma once
// The RNN attention baseline (Luong et al. 2015 as used by Tran & Bisk 2018):
// 2-layer BiLSTM encoder s_i = [fwd_i; bwd_i]; stacked LSTM decoder with input feeding;
// general attention alpha_t = softmax(h_t^T W_a S); u_t = tanh(W_u [h_t; c_t]);
// p(y_t) = softmax(W_o u_t) with W_o tied to the target embeddings.
#include <torch/nn/module.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>

#include <nlohmann/json.hpp>

#include "trainer/models/seq2seq_model.h"
#include "trainer/nn/input_feeding_decoder.h"
#include "trainer/nn/input_feeding_target.h"
#include "trainer/nn/rnn_encoder.h"

namespace synmt {

struct RnnAttentionOptions {
  int64_t src_vocab = 0, tgt_vocab = 0;  // filled from the vocabularies, not from configs
  int64_t embed_dim = 256;
  int64_t encoder_hidden = 256;  // per direction
  int64_t encoder_layers = 2;
  int64_t decoder_hidden = 512;
  int64_t decoder_layers = 2;
  double dropout = 0.3;
  double init_range = 0.1;      // uniform(-r, r) initialisation (0.04 in SA-NMT)
  bool tie_target_embeddings = true;
  std::string attention_score = "general";  // dot | general
  std::string decoder_init = "bridge";      // bridge (mean of the states) | zero

  // The JSON keys, once: from_json / to_json (core/config.h) visit them.
  template <class Self, class Visit>
  static void fields(Self& o, Visit&& v) {
    v("src_vocab", o.src_vocab);
    v("tgt_vocab", o.tgt_vocab);
    v("embed_dim", o.embed_dim);
    v("encoder_hidden", o.encoder_hidden);
    v("encoder_layers", o.encoder_layers);
    v("decoder_hidden", o.decoder_hidden);
    v("decoder_layers", o.decoder_layers);
    v("dropout", o.dropout);
    v("init_range", o.init_range);
    v("tie_target_embeddings", o.tie_target_embeddings);
    v("attention_score", o.attention_score);
    v("decoder_init", o.decoder_init);
  }
  static RnnAttentionOptions from_json(const nlohmann::json& j);
  nlohmann::json to_json() const;
};

class RnnAttentionModel : public Seq2SeqModel {
 public:
  static constexpr const char* kFamily = "rnn_attention";  // the family's name, here only
  explicit RnnAttentionModel(RnnAttentionOptions options);
  ModelOutput forward(const SourceInput& src, const torch::Tensor& tgt_in, const ForwardRequest& request = {}) override;
  DecodeState encode(const SourceInput& src) override;
  torch::Tensor step(DecodeState& state, const torch::Tensor& prev_tokens) override;
  nlohmann::json describe() const override;
  // source_attention (tgt src): the decoder's attention over the source at each step
  std::map<std::string, std::string> analysis_axes() const override { return {{"source_attention", "tgt src"}}; }

 private:

  RnnAttentionOptions options_;
  // Registration order (embeddings, encoder, decoder, output) fixes the seeded initialisation.
  torch::nn::Embedding src_embed{nullptr}, tgt_embed{nullptr};
  BiLstmEncoder encoder{nullptr};
  InputFeedingDecoder decoder{nullptr};
  torch::nn::Linear output_proj{nullptr};   // only when embeddings are not tied
  torch::nn::Dropout dropout{nullptr};
  InputFeedingTarget target_;  // tgt_embed, decoder, output_proj (set after registration)
};

}  // namespace synmt
