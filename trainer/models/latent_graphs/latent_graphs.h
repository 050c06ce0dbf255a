#pragma once
// Latent-graph NMT (Bastings, Aziz, Titov & Sima'an 2018): a translation encoder (Emb: embeddings
// scaled by sqrt(d) (embed_scale) + sinusoidal positions, as Vaswani et al.'s; CNN: the same positioned
// embeddings through residual width-k convolutions; RNN: a BiLSTM of d/2 units per direction, so
// that its states have the paper's d units, as the graph BiLSTM's by default) whose states pass
// one GCN layer over a Concrete-sampled latent graph
// (nn/latent_graph.h, nn/gcn.h) computed from the same source embeddings, then a Luong-attention
// LSTM decoder (general score, input feeding) with its own output layer. The baselines (graph:
// false) replace the GCN by the dense ReLU layer with the same residual.
// The CNN: the paper cites Gehring et al.'s ACL 2017 convolutional *encoder* (residual convolutions
// over embeddings plus positions), not the gated linear units of their later ConvS2S, and names no
// non-linearity itself. That encoder's is tanh (OpenNMT's Lua and TensorFlow implementations of it:
// tanh(conv(x)), then tanh(x + conv(x))), which the CNN presets use (cnn_activation: tanh). The
// first reading here, x + ReLU(conv(x)), stays the option's default for checkpoints written before
// the option: unbounded and drifting upwards with every layer, it had gradient norms up to 7e4 and
// a dev perplexity of 354 after one mini epoch where tanh had 149 (docs/results/latent_graphs.mini.md).
// Temperature tau_t = tau0 * decay^floor(t / t_d), t_d one epoch of updates unless set; kept in a
// buffer, so checkpoints, resume and decoding agree. At test time the graph is softmax(lambda / tau)
// without noise (the paper is silent; test_graph: plain gives softmax(lambda)).
#include <torch/nn/module.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>

#include <string>

#include <nlohmann/json.hpp>

#include "trainer/models/seq2seq_model.h"
#include "trainer/nn/gcn.h"
#include "trainer/nn/input_feeding_decoder.h"
#include "trainer/nn/input_feeding_target.h"
#include "trainer/nn/latent_graph.h"
#include "trainer/nn/rnn_encoder.h"

namespace synmt {

struct LatentGraphsOptions {
  int64_t src_vocab = 0, tgt_vocab = 0;  // filled from the vocabularies
  int64_t embed_dim = 256;      // = the encoder's hidden size (256 De-En, 512 Ja-En in the paper)
  std::string encoder = "rnn";  // emb | cnn | rnn
  int64_t cnn_layers = 2, cnn_kernel = 3;  // receptive field 5
  // relu: x + ReLU(conv(x)) (the first reading, kept as the default so that checkpoints written
  // before this option decode as they were trained) | tanh: tanh(conv(x)), then tanh(x + conv(x)),
  // the encoder of Gehring et al. (ACL 2017) that the paper cites; the CNN presets set it
  // (nn/rnn_encoder.h)
  std::string cnn_activation = "relu";
  bool graph = true;            // false: the baseline (dense ReLU layer)
  int64_t graph_hidden = 0;     // the graph BiLSTM per direction; 0: embed_dim / 2
  int64_t key_dim = 256;        // d_K
  double tau0 = 2.0, tau_decay = 0.99;
  int64_t tau_interval = 0;     // t_d in updates; 0: one epoch of updates
  // The graph at test time (eval mode; training always samples): tau: softmax(lambda / tau_last) |
  // plain: softmax(lambda) | two probes of how much a trained model relies on its graph, set at
  // decoding (synmt-translate --model-option): uniform: every other token of the sentence an equal
  // head | none: no edges, the GCN's self term only (what the baseline's dense layer computes)
  std::string test_graph = "tau";
  bool edge_gates = false, degree_norm = false;
  int64_t decoder_hidden = 256, decoder_layers = 1;
  std::string attention_score = "general";
  double dropout = 0.3;
  double init_range = 0.1;
  // The Emb and CNN encoders' embeddings before the positions are added: sqrt_d (Vaswani et al.'s
  // scaling, this repository's reading: the paper is silent) | none (the bare embeddings; an ablation)
  std::string embed_scale = "sqrt_d";
  // The paper's output layer is its own matrix; true ties it to the target embeddings (not the paper).
  bool tie_target_embeddings = false;

  template <class Self, class Visit>
  static void fields(Self& o, Visit&& v) {
    v("src_vocab", o.src_vocab);
    v("tgt_vocab", o.tgt_vocab);
    v("embed_dim", o.embed_dim);
    v("encoder", o.encoder);
    v("cnn_layers", o.cnn_layers);
    v("cnn_kernel", o.cnn_kernel);
    v("cnn_activation", o.cnn_activation);
    v("graph", o.graph);
    v("graph_hidden", o.graph_hidden);
    v("key_dim", o.key_dim);
    v("tau0", o.tau0);
    v("tau_decay", o.tau_decay);
    v("tau_interval", o.tau_interval);
    v("test_graph", o.test_graph);
    v("edge_gates", o.edge_gates);
    v("degree_norm", o.degree_norm);
    v("decoder_hidden", o.decoder_hidden);
    v("decoder_layers", o.decoder_layers);
    v("attention_score", o.attention_score);
    v("dropout", o.dropout);
    v("init_range", o.init_range);
    v("embed_scale", o.embed_scale);
    v("tie_target_embeddings", o.tie_target_embeddings);
  }
  static LatentGraphsOptions from_json(const nlohmann::json& j);
  nlohmann::json to_json() const;
};

// tau after `update` updates: tau0 * decay^floor(update / interval)
double latent_graph_temperature(const LatentGraphsOptions& options, int64_t update, int64_t updates_per_epoch);

class LatentGraphsModel : public Seq2SeqModel {
 public:
  static constexpr const char* kFamily = "latent_graphs";  // the family's name, here only
  explicit LatentGraphsModel(LatentGraphsOptions options);
  ModelOutput forward(const SourceInput& src, const torch::Tensor& tgt_in, const ForwardRequest& request = {}) override;
  DecodeState encode(const SourceInput& src) override;
  torch::Tensor step(DecodeState& state, const torch::Tensor& prev_tokens) override;
  nlohmann::json describe() const override;
  // graph (src src): the soft latent graph, row i = i's head distribution; source_attention (tgt src)
  std::map<std::string, std::string> analysis_axes() const override;
  void set_training_context(const TrainingContext& context) override;
  double temperature() const { return tau.item<double>(); }
  // s_1^m: the translation encoder's states before the GCN (B, S, embed_dim)
  torch::Tensor source_states(const SourceInput& src);

 private:
  DecodeState encode_with(const SourceInput& src, ModelOutput* analysis);
  torch::Tensor source_states(const SourceInput& src, const torch::Tensor& embedded);

  LatentGraphsOptions options_;
  torch::nn::Embedding src_embed{nullptr}, tgt_embed{nullptr};
  BiLstmEncoder rnn{nullptr};
  CnnEncoder cnn{nullptr};
  LatentGraph graph{nullptr};
  GcnLayer gcn{nullptr};
  InputFeedingDecoder decoder{nullptr};
  torch::nn::Linear output_proj{nullptr};
  torch::nn::Dropout dropout{nullptr};
  InputFeedingTarget target_;  // tgt_embed, decoder, output_proj (set after registration)
  torch::Tensor tau;  // buffer: the current temperature
};

}  // namespace synmt
