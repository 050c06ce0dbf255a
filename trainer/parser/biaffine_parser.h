#pragma once
// The builtin graph-based dependency parser: the latent-graph parser of Hashimoto & Tsuruoka 2017
// (Hashimoto & Tsuruoka 2017) with Dozat & Manning's biaffine scorers.
//   x(w) = [word embedding; mean of the word's character n-gram embeddings (n = 2..4)]
//   layer 1: BiLSTM over x -> h1 -> softmax UPOS tagger p1
//   layer 2: BiLSTM over [x; W_l p1; h1] -> h2 (the tagger's soft prediction feeds the next layer);
//            layer2_input per_direction (LGP's §3.1): ->h2 reads [x; W_l p1; ->h1] and <-h2 reads
//            [x; W_l p1; <-h1], two one-way LSTMs instead of one BiLSTM over both halves of h1
//   arcs: s(i, j) = MLP_dep(h2_i)^T U MLP_head(h2_j) + u^T MLP_head(h2_j), j over ROOT and words != i
//         (arc_scorer biaffine, Dozat & Manning), or s(i, j) = h2_j^T W_dp h2_i (bilinear, LGP's m(i, j))
//   labels: biaffine over [MLP'_dep(h2_i), MLP'_head(h2_head(i))]; LGP's soft labels use the
//         expected head representation sum_j p(H_i = j) MLP'_head(h2_j) instead (soft_label_scores)
// ROOT is an extra position 0 with its own embeddings. LGP-NMT reuses this module: its soft heads
// are head_probabilities(), its h2 states are output.states, and pre-training on the first K
// treebank sentences is the parser trainer's max_sentences.
#include <torch/nn/module.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/rnn.h>

#include <string>

#include <nlohmann/json.hpp>

namespace synmt::parser {

struct ParserOptions {
  int64_t words = 0, ngrams = 0, upos = 0, labels = 0;  // vocabulary sizes (from ParserVocab)
  int64_t word_dim = 100, ngram_dim = 100;
  int64_t lstm_hidden = 200;  // per direction, both BiLSTM layers
  int64_t tag_dim = 50;       // W_l p1 (LGP's d2)
  int64_t arc_dim = 256, label_dim = 64;
  double dropout = 0.33;      // embeddings, LSTM outputs, MLPs
  double word_dropout = 0.2;  // training: a word id becomes <unk> with this probability
  std::string arc_scorer = "biaffine";  // biaffine (MLPs + U, Dozat & Manning) | bilinear (h_j^T W_dp h_i, LGP)
  // LGP's §4.2: "all the bias vectors and the weight matrices in the softmax layers" start at zero
  // (the POS classifier, the label scorer's output weights); false: the projections' Xavier
  // initialisation and LibTorch's default biases.
  bool zero_softmax_init = false;
  // Layer 2's input: joint (both directions read all of h1: a BiLSTM, the stand-alone parser's) |
  // per_direction (each direction reads its own direction's h1, LGP-NMT's §3.1 equations).
  std::string layer2_input = "joint";

  // The JSON keys, once: from_json / to_json (core/config.h) visit them.
  template <class Self, class Visit>
  static void fields(Self& o, Visit&& v) {
    v("words", o.words);
    v("ngrams", o.ngrams);
    v("upos", o.upos);
    v("labels", o.labels);
    v("word_dim", o.word_dim);
    v("ngram_dim", o.ngram_dim);
    v("lstm_hidden", o.lstm_hidden);
    v("tag_dim", o.tag_dim);
    v("arc_dim", o.arc_dim);
    v("label_dim", o.label_dim);
    v("dropout", o.dropout);
    v("word_dropout", o.word_dropout);
    v("arc_scorer", o.arc_scorer);
    v("zero_softmax_init", o.zero_softmax_init);
    v("layer2_input", o.layer2_input);
  }
  static ParserOptions from_json(const nlohmann::json& j);
  nlohmann::json to_json() const;
};

struct ParserBatch {
  torch::Tensor words;          // (B, N+1) int64; position 0 = <root>, padding 0
  torch::Tensor ngram_ids;      // flat int64 n-gram ids of every position, in order
  torch::Tensor ngram_offsets;  // (B * (N+1)) start of each position's n-grams in ngram_ids
  torch::Tensor lengths;        // (B) words per sentence (without ROOT)
  torch::Tensor heads, labels, upos;  // (B, N+1) gold; -100 at ROOT, padding and when unknown
};

struct ParserOutput {
  torch::Tensor upos_logits;  // (B, N+1, P)
  torch::Tensor arc_scores;   // (B, N+1, N+1): [b][dependent i][head j], impossible heads at -1e9
  torch::Tensor label_dep, label_head;  // (B, N+1, label_dim)
  torch::Tensor states;       // h2 (B, N+1, 2 * lstm_hidden)
};

class BiaffineParserImpl : public torch::nn::Module {
 public:
  explicit BiaffineParserImpl(const ParserOptions& options);
  ParserOutput forward(const ParserBatch& batch);
  // label scores (B, N+1, L) of each dependent given its head (gold or predicted; -100 = none)
  torch::Tensor label_scores(const ParserOutput& out, const torch::Tensor& heads);
  // label scores (B, N+1, L) given soft heads probs (B, N+1, N+1) [dependent][head]: the head
  // representation is its expectation under probs (LGP's z(H_i))
  torch::Tensor soft_label_scores(const ParserOutput& out, const torch::Tensor& probs);
  // p(head = j | dependent i): softmax of the arc scores (LGP's soft heads)
  static torch::Tensor head_probabilities(const ParserOutput& out) { return torch::softmax(out.arc_scores, -1); }
  const ParserOptions& options() const { return options_; }

 private:
  torch::Tensor run_lstm(torch::nn::LSTM& lstm, const torch::Tensor& x, const torch::Tensor& lengths);
  torch::Tensor layer2(const torch::Tensor& x, const torch::Tensor& y, const torch::Tensor& h1, const torch::Tensor& lengths);
  ParserOptions options_;
  torch::nn::Embedding word_embed{nullptr};
  torch::nn::EmbeddingBag ngram_embed{nullptr};
  torch::nn::LSTM lstm1{nullptr}, lstm2{nullptr};
  torch::nn::LSTM lstm2_forward{nullptr}, lstm2_backward{nullptr};  // layer2_input per_direction
  torch::nn::Linear upos_out{nullptr}, tag_embed{nullptr};
  torch::nn::Linear arc_dep{nullptr}, arc_head{nullptr}, label_dep{nullptr}, label_head{nullptr};
  torch::Tensor arc_u, arc_bias;  // biaffine
  torch::Tensor arc_w;            // bilinear
  torch::nn::Bilinear label_bilinear{nullptr};
  torch::nn::Linear label_linear{nullptr};
  torch::nn::Dropout dropout{nullptr};
};
TORCH_MODULE(BiaffineParser);

}  // namespace synmt::parser
