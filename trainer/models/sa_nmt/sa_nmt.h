#pragma once
// SA-NMT (Tran & Bisk 2018): the RNN attention model whose encoder states S also pass through a
// head-word selection (nn/structured_attention.h) giving syntactic annotations M, which the
// input-feeding decoder attends to beside S: with the content attention's weights (shared) or its
// own (not shared), gated by sigma(W_g h_t). Variants as options: syntax none (the NMT baseline),
// flat (FA-NMT), tree (SA-NMT), hard (one-hot heads, straight-through); one_set (SA-NMT-1set:
// s'_i = s_i + sigma(W_g s_i) * m_i, one attention).
#include <torch/nn/module.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>

#include <vector>

#include <nlohmann/json.hpp>

#include "trainer/models/seq2seq_model.h"
#include "trainer/nn/input_feeding_decoder.h"
#include "trainer/nn/input_feeding_target.h"
#include "trainer/nn/rnn_encoder.h"
#include "trainer/nn/structured_attention.h"

namespace synmt {

struct SaNmtOptions {
  int64_t src_vocab = 0, tgt_vocab = 0;  // filled from the vocabularies
  int64_t embed_dim = 1024;
  int64_t encoder_hidden = 512;  // per direction
  int64_t encoder_layers = 2;    // BiLSTM layers under the head-word selection
  int64_t decoder_hidden = 1024;
  int64_t decoder_layers = 2;
  double dropout = 0.3;
  double init_range = 0.04;
  bool tie_target_embeddings = true;
  std::string syntax = "tree";      // none | flat | tree | hard
  bool shared_attention = true;     // the annotations attended with the content attention's weights
  bool gate = true;                 // sigma(W_g h_t) on the attended annotation
  bool one_set = false;             // SA-NMT-1set
  bool float64_marginals = false;
  // Punctuation may head no other token (the released code masks it; the paper is silent). The ids
  // are filled by synmt-train from the source vocabulary (Vocab::punctuation_ids) when on.
  bool mask_punct_heads = false;
  std::vector<int64_t> punct_ids;

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
    v("syntax", o.syntax);
    v("shared_attention", o.shared_attention);
    v("gate", o.gate);
    v("one_set", o.one_set);
    v("float64_marginals", o.float64_marginals);
    v("mask_punct_heads", o.mask_punct_heads);
    v("punct_ids", o.punct_ids);
  }
  static SaNmtOptions from_json(const nlohmann::json& j);
  nlohmann::json to_json() const;
};

class SaNmtModel : public Seq2SeqModel {
 public:
  static constexpr const char* kFamily = "sa_nmt";  // the family's name, here only
  explicit SaNmtModel(SaNmtOptions options);
  ModelOutput forward(const SourceInput& src, const torch::Tensor& tgt_in, const ForwardRequest& request = {}) override;
  DecodeState encode(const SourceInput& src) override;
  torch::Tensor step(DecodeState& state, const torch::Tensor& prev_tokens) override;
  nlohmann::json describe() const override;
  // phi, beta (src src): head scores and marginals; gate_norm (tgt): ||sigma(W_g h_t)||_2
  std::map<std::string, std::string> analysis_axes() const override;

 private:
  DecodeState encode_with(const SourceInput& src, ModelOutput* analysis);
  bool has_syntax() const { return options_.syntax != "none"; }

  SaNmtOptions options_;
  torch::nn::Embedding src_embed{nullptr}, tgt_embed{nullptr};
  BiLstmEncoder encoder{nullptr};
  InputFeedingDecoder decoder{nullptr};
  StructuredAttention heads{nullptr};
  torch::nn::Linear one_set_gate{nullptr};
  torch::nn::Linear output_proj{nullptr};
  torch::nn::Dropout dropout{nullptr};
  InputFeedingTarget target_;  // tgt_embed, decoder, output_proj (set after registration)
};

}  // namespace synmt
