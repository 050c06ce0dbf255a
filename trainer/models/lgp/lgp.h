#pragma once
// LGP-NMT (Hashimoto & Tsuruoka 2017): a latent graph parser as encoder layers 1-2, a
// uni-directional LSTM as layer 3, a dependency composition over the soft heads, and a 1-layer
// input-feeding decoder attending to both the encoder states and the compositions.
//
//   layers 1-2   the builtin parser (trainer/parser/biaffine_parser.h) over the source words:
//                x(w) = [v_dp(w); mean of w's character n-gram embeddings] -> BiLSTM -> soft UPOS
//                (an <unk> word: v_dp(<unk>) and the n-grams of its surface form, as the paper's
//                n-grams are there for the rare words)
//                p1 -> BiLSTM over [x; W_l p1; h1] -> h2; soft heads p(H_i = j), j over ROOT and the
//                words != i (arc_scorer bilinear: m(i, j) = h2_j^T W_dp h2_i, the paper's); soft
//                labels p(l_i) from [h2_i; sum_j p(H_i = j) h2_j]
//   layer 3      h_i = LSTM(h_{i-1}, [v_enc(w_i); h2_i]) over the words and then </s> (i = N+1)
//   composition  dep(w_i) = tanh(W_dep [h_i; sum_j p(H_i = j) h_j; p(l_i)]), ROOT read as h_{N+1}
//   decoder      initialised with h_{N+1}; a_t over h_1..h_{N+1}, a'_t over dep(w_1..w_N), both dot
//                attentions; h~_t = tanh(W~[h_t; a_t; a'_t]) (dropout on h~), input feeding, output
//                layer tied to the target embeddings
//
// Variants (option `heads`): latent (LGP-NMT, LGP-NMT+ when a pre-trained parser is loaded),
// uniform (UNI: p(H_i = j) = 1/N over the N candidates), parsed (DEP: the parse cache's 1-best heads
// and labels as one-hot distributions), none (SEQ: no composition, no a'_t; the parser's layers
// still feed layer 3, as the paper's SEQ keeps the multi-layer encoder).
//
// Where this differs from the paper (docs/lgp.md): ROOT is the parser's own position 0 (a learned
// root embedding, the builtin parser's) and is identified with the </s> position N+1 in layer 3 and
// the composition; the label softmax is the builtin parser's biaffine label scorer applied to the
// expected head representation. As the paper: the decoder starts from h_{N+1} and layer 3's memory
// cell there (§3.2); the parser's softmax layers and biases start at zero (§4.2, zero_softmax_init).
//
// Parameter count (the test checks it): V_s, V_t the vocabularies, G the n-grams of the source
// vocabulary + 2, P = upos, Lp = labels (the parser's label classes), L = the composition's label
// classes (src_labels for parsed heads, labels otherwise), d1 = parser_hidden, e = word_dim,
// g = ngram_dim, t = tag_dim, a = arc_dim, l = label_dim, d3 = hidden, E = embed_dim, and
// bilstm(i, h) = 2 * 4h (i + h + 2):
//   parser   V_s e + G g + bilstm(e + g, d1) + (2 d1 P + P) + P t + bilstm(e + g + t + d1, d1)
//            (parser_layer2 per_direction: two one-way LSTMs over e + g + t + d1; joint: e + g + t + 2 d1)
//            + [bilinear: 4 d1^2 | biaffine: 2 (2 d1 a + a) + a^2 + a] + 2 (2 d1 l + l) + l^2 Lp + Lp + 2 l Lp
//   NMT      V_s E + V_t E + 4 d3 (E + 2 d1 + d3 + 2)                     embeddings, layer 3
//            + [(2 d3 + L) d3 (+ d3 with dep_bias)]                        W_dep (not in SEQ)
//            + 4 d3 (2 E + d3 + 2) + (2 d3 [+ d3]) E                      decoder cell, W~ ([a'_t] not in SEQ)
//   (dot attentions and the tied output layer have no parameters)
#include <torch/nn/module.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/rnn.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "preprocess/vocab.h"
#include "trainer/models/seq2seq_model.h"
#include "trainer/nn/input_feeding_decoder.h"
#include "trainer/nn/input_feeding_target.h"
#include "trainer/parser/biaffine_parser.h"
#include "trainer/parser/parser_vocab.h"

namespace synmt {

enum class LgpHeads { kLatent, kUniform, kParsed, kNone };
LgpHeads parse_lgp_heads(const std::string& name);  // latent | uniform | parsed | none

struct LgpOptions {
  int64_t src_vocab = 0, tgt_vocab = 0;  // filled from the vocabularies
  // The source vocabulary's tokens, filled by synmt-train: the character n-gram inventory and each
  // word's n-grams come from them, so that decoding rebuilds the same table from the checkpoint.
  std::vector<std::string> src_words;
  int64_t upos = 17;    // latent POS classes (UD's 17 UPOS: what a pre-trained parser predicts)
  int64_t labels = 37;  // latent label classes (UD's 37 universal relations)
  int64_t src_labels = 0;  // the pair's label inventory, filled from parsed data (DEP's one-hot labels)
  // latent graph parser (layers 1-2): the paper's d1 = 100, d2 = 50
  int64_t word_dim = 100, ngram_dim = 100, parser_hidden = 100, tag_dim = 50;
  std::string arc_scorer = "bilinear";  // bilinear (the paper's) | biaffine (the builtin parser's)
  // per_direction (the paper's §3.1: each direction of layer 2 reads its own direction of h1) |
  // joint (one BiLSTM over all of h1: the builtin parser's, and LGP runs before this option)
  std::string parser_layer2 = "per_direction";
  int64_t arc_dim = 100, label_dim = 50;
  double parser_dropout = 0.0, word_dropout = 0.0;
  // layer 3 and the decoder: the paper's d3 = 128 / 256 / 512 (small / medium / large)
  int64_t embed_dim = 128, hidden = 128;
  std::string heads = "latent";
  double dropout = 0.2;      // on h~ (the paper's only dropout)
  double init_range = 0.1;   // NMT parameters U(-r, r); the parser keeps its own initialisation
  // A bias in eq. (3)'s W_dep: the paper's composition has none (tanh(W_dep[...])); true gives the
  // composition of the LGP runs before 2026-12-02, whose checkpoints and results pages had it.
  bool dep_bias = false;
  // A builtin parser file (synmt-parser-train --nmt-vocab) whose parameters replace the parser's at
  // initialisation (LGP-NMT+); synmt-train loads it (a resumed run too, whose state then overwrites
  // it), decoding does not read it.
  std::string pretrained_parser;

  template <class Self, class Visit>
  static void fields(Self& o, Visit&& v) {
    v("src_vocab", o.src_vocab);
    v("tgt_vocab", o.tgt_vocab);
    v("src_words", o.src_words);
    v("upos", o.upos);
    v("labels", o.labels);
    v("src_labels", o.src_labels);
    v("word_dim", o.word_dim);
    v("ngram_dim", o.ngram_dim);
    v("parser_hidden", o.parser_hidden);
    v("tag_dim", o.tag_dim);
    v("arc_scorer", o.arc_scorer);
    v("parser_layer2", o.parser_layer2);
    v("arc_dim", o.arc_dim);
    v("label_dim", o.label_dim);
    v("parser_dropout", o.parser_dropout);
    v("word_dropout", o.word_dropout);
    v("embed_dim", o.embed_dim);
    v("hidden", o.hidden);
    v("heads", o.heads);
    v("dropout", o.dropout);
    v("init_range", o.init_range);
    v("dep_bias", o.dep_bias);
    v("pretrained_parser", o.pretrained_parser);
  }
  static LgpOptions from_json(const nlohmann::json& j);
  nlohmann::json to_json() const;
  // The parser's options (sizes from the vocabulary and inventories).
  parser::ParserOptions parser_options() const;
  int64_t label_classes() const;  // src_labels for parsed heads, labels otherwise
};

// The parser options of the lgp model in a synmt-train config ({"model": {"arch"|"family", "options"}})
// over the source vocabulary `src_vocab`: what LGP-NMT+ pre-training must train.
parser::ParserOptions lgp_parser_options(const nlohmann::json& train_config, const Vocab& src_vocab);

class LgpModel : public Seq2SeqModel {
 public:
  static constexpr const char* kFamily = "lgp";  // the family's name, here only
  explicit LgpModel(LgpOptions options);
  ModelOutput forward(const SourceInput& src, const torch::Tensor& tgt_in, const ForwardRequest& request = {}) override;
  DecodeState encode(const SourceInput& src) override;
  torch::Tensor step(DecodeState& state, const torch::Tensor& prev_tokens) override;
  nlohmann::json describe() const override;
  std::set<std::string> required_features() const override;
  // heads (src src): row i = word i's head distribution over the words, p(ROOT) on the diagonal
  // (the convention of synmt-trees induce --rows dependents); upos (src 17) and labels (src L)
  std::map<std::string, std::string> analysis_axes() const override;
  void load_pretrained() override {
    if (!options_.pretrained_parser.empty()) load_pretrained_parser(options_.pretrained_parser);
  }
  std::vector<std::string> pretrained_files() const override {
    if (options_.pretrained_parser.empty()) return {};
    return {options_.pretrained_parser};
  }

  // The soft heads in the parser's layout (B, N+1, N+1): [dependent][head], position 0 = ROOT,
  // row 0 unused; and the parser's output, for tests and the latent-graph UAS.
  struct Graph {
    parser::ParserOutput parser;
    torch::Tensor heads;   // (B, N+1, N+1)
    torch::Tensor labels;  // (B, N+1, L) label distributions
  };
  Graph graph(const SourceInput& src);
  parser::BiaffineParser& latent_parser() { return parser_; }
  // Replaces the parser's parameters with a builtin parser file's (LGP-NMT+); InputError when the
  // file's parser has other options (sizes, vocabulary) than this model's.
  void load_pretrained_parser(const std::string& path);
  // The parser batch of a source batch: ROOT at position 0, a word's n-grams from the vocabulary
  // table, an <unk> word's from its surface form (src.unknown_forms), so that the words outside the
  // NMT vocabulary, those the n-grams exist for, keep them (ConfigError when a source with <unk>
  // tokens comes without their forms: a dataset binarised by an older synmt).
  parser::ParserBatch parser_batch(const SourceInput& src) const;

 private:
  DecodeState encode_with(const SourceInput& src, ModelOutput* analysis);
  LgpOptions options_;
  LgpHeads heads_mode_;
  parser::BiaffineParser parser_{nullptr};
  parser::ParserVocab parser_vocab_;  // the n-gram inventory (of the source vocabulary's tokens)
  torch::Tensor ngram_table_;  // (V_s, G_max) n-gram ids of each source word, 0 = none (buffer)
  // (B * (N+1), G) n-gram ids of the <unk> words' surface forms at their parser positions, zero
  // elsewhere; undefined when the batch has no <unk> word or the model no vocabulary tokens.
  torch::Tensor unknown_word_ngrams(const SourceInput& src) const;
  torch::nn::Embedding src_embed{nullptr}, tgt_embed{nullptr};
  torch::nn::LSTM encoder{nullptr};  // layer 3
  torch::nn::Linear compose{nullptr};  // W_dep
  InputFeedingDecoder decoder{nullptr};
  InputFeedingTarget target_;  // tgt_embed and decoder, output tied (set after registration)
};

}  // namespace synmt
