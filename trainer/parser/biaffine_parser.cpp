#include "trainer/parser/biaffine_parser.h"

#include <torch/nn/functional/activation.h>
#include <torch/nn/init.h>
#include <torch/nn/utils/rnn.h>

#include <cmath>

#include "core/config.h"

namespace synmt::parser {

ParserOptions ParserOptions::from_json(const nlohmann::json& j) {
  ParserOptions o = options_from_json<ParserOptions>(j, "parser.model");
  if (o.arc_scorer != "biaffine" && o.arc_scorer != "bilinear")
    throw ConfigError("parser.model.arc_scorer '" + o.arc_scorer + "' is none of biaffine | bilinear");
  if (o.layer2_input != "joint" && o.layer2_input != "per_direction")
    throw ConfigError("parser.model.layer2_input '" + o.layer2_input + "' is none of joint | per_direction");
  return o;
}

nlohmann::json ParserOptions::to_json() const { return options_to_json(*this); }

BiaffineParserImpl::BiaffineParserImpl(const ParserOptions& o) : options_(o) {
  if (o.words <= 0 || o.ngrams <= 0 || o.upos <= 0 || o.labels <= 0) throw ConfigError("parser: vocabulary sizes are not set");
  const int64_t in = o.word_dim + o.ngram_dim, h = o.lstm_hidden;
  word_embed = register_module("word_embed", torch::nn::Embedding(torch::nn::EmbeddingOptions(o.words, o.word_dim).padding_idx(0)));
  ngram_embed = register_module("ngram_embed", torch::nn::EmbeddingBag(torch::nn::EmbeddingBagOptions(o.ngrams, o.ngram_dim).mode(torch::kMean)));
  lstm1 = register_module("lstm1", torch::nn::LSTM(torch::nn::LSTMOptions(in, h).bidirectional(true).batch_first(true)));
  upos_out = register_module("upos_out", torch::nn::Linear(2 * h, o.upos));
  tag_embed = register_module("tag_embed", torch::nn::Linear(torch::nn::LinearOptions(o.upos, o.tag_dim).bias(false)));
  if (o.layer2_input == "per_direction") {
    const auto one_way = torch::nn::LSTMOptions(in + o.tag_dim + h, h).batch_first(true);
    lstm2_forward = register_module("lstm2_forward", torch::nn::LSTM(one_way));
    lstm2_backward = register_module("lstm2_backward", torch::nn::LSTM(one_way));
  } else {
    lstm2 = register_module("lstm2", torch::nn::LSTM(torch::nn::LSTMOptions(in + o.tag_dim + 2 * h, h).bidirectional(true).batch_first(true)));
  }
  const bool biaffine = o.arc_scorer == "biaffine";
  if (biaffine) {
    arc_dep = register_module("arc_dep", torch::nn::Linear(2 * h, o.arc_dim));
    arc_head = register_module("arc_head", torch::nn::Linear(2 * h, o.arc_dim));
    arc_u = register_parameter("arc_u", torch::zeros({o.arc_dim, o.arc_dim}));  // zero init (Dozat & Manning)
    arc_bias = register_parameter("arc_bias", torch::zeros({o.arc_dim}));
  } else {
    arc_w = register_parameter("arc_w", torch::empty({2 * h, 2 * h}));
  }
  label_dep = register_module("label_dep", torch::nn::Linear(2 * h, o.label_dim));
  label_head = register_module("label_head", torch::nn::Linear(2 * h, o.label_dim));
  label_bilinear = register_module("label_bilinear", torch::nn::Bilinear(o.label_dim, o.label_dim, o.labels));
  label_linear = register_module("label_linear", torch::nn::Linear(torch::nn::LinearOptions(2 * o.label_dim, o.labels).bias(false)));
  dropout = register_module("dropout", torch::nn::Dropout(o.dropout));
  torch::NoGradGuard no_grad;
  label_bilinear->weight.zero_();
  // LGP's parser initialisation U(+-sqrt(6 / (rows + cols))) for the projections
  for (auto* l : {&upos_out, &tag_embed, &arc_dep, &arc_head, &label_dep, &label_head, &label_linear})
    if (*l) torch::nn::init::xavier_uniform_((*l)->weight);
  if (!biaffine) torch::nn::init::xavier_uniform_(arc_w);
  if (o.zero_softmax_init) {
    upos_out->weight.zero_();
    label_linear->weight.zero_();  // label_bilinear's weight is zero already
    for (auto& p : named_parameters())
      if (p.key().find("bias") != std::string::npos && p.key().rfind("lstm", 0) != 0) p.value().zero_();
  }
  for (auto* lstm : {&lstm1, &lstm2, &lstm2_forward, &lstm2_backward})  // forget-gate bias 1 (LGP): 0.5 in each of bias_ih and bias_hh
    if (*lstm)
      for (auto& p : (*lstm)->named_parameters())
      if (p.key().find("bias") != std::string::npos) p.value().zero_().narrow(0, h, h).fill_(0.5);
}

torch::Tensor BiaffineParserImpl::run_lstm(torch::nn::LSTM& lstm, const torch::Tensor& x, const torch::Tensor& lengths) {
  auto packed = torch::nn::utils::rnn::pack_padded_sequence(x, lengths, /*batch_first=*/true, /*enforce_sorted=*/false);
  auto out = std::get<0>(lstm->forward_with_packed_input(packed));
  return std::get<0>(torch::nn::utils::rnn::pad_packed_sequence(out, /*batch_first=*/true, 0.0, x.size(1)));
}

namespace {

// Each sequence's first `length` positions in reverse order, padding left where it is: applied
// twice it is the identity. The backward direction of a per-direction layer is a forward LSTM
// over the reversed sequences (what a bidirectional LSTM does inside, with its own input).
torch::Tensor reverse_within_lengths(const torch::Tensor& x, const torch::Tensor& lengths) {
  const int64_t n = x.size(1);
  auto positions = torch::arange(n, torch::TensorOptions().dtype(torch::kInt64).device(x.device())).unsqueeze(0);
  auto len = lengths.to(x.device(), torch::kInt64).unsqueeze(1);
  auto index = torch::where(positions < len, len - 1 - positions, positions);  // (B, N)
  return x.gather(1, index.unsqueeze(-1).expand(x.sizes()));
}

}  // namespace

torch::Tensor BiaffineParserImpl::layer2(const torch::Tensor& x, const torch::Tensor& y, const torch::Tensor& h1,
                                         const torch::Tensor& lengths) {
  if (lstm2) return run_lstm(lstm2, torch::cat({x, y, h1}, -1), lengths);
  // LGP §3.1: ->h2_i = LSTM(->h2_{i-1}, [x; y; ->h1_i]), <-h2_i = LSTM(<-h2_{i+1}, [x; y; <-h1_i]);
  // LibTorch's bidirectional output holds the forward direction's states first
  const int64_t h = options_.lstm_hidden;
  auto forward = run_lstm(lstm2_forward, torch::cat({x, y, h1.narrow(-1, 0, h)}, -1), lengths);
  auto reversed = reverse_within_lengths(torch::cat({x, y, h1.narrow(-1, h, h)}, -1), lengths);
  auto backward = reverse_within_lengths(run_lstm(lstm2_backward, reversed, lengths), lengths);
  return torch::cat({forward, backward}, -1);
}

ParserOutput BiaffineParserImpl::forward(const ParserBatch& b) {
  const int64_t B = b.words.size(0), N1 = b.words.size(1);
  auto words = b.words;
  if (is_training() && options_.word_dropout > 0) {
    auto drop = torch::rand(words.sizes(), words.options().dtype(torch::kFloat32)) < options_.word_dropout;
    drop = drop.logical_and(words.gt(2));  // keep <pad>, <root>
    words = words.masked_fill(drop, 1);
  }
  auto ngrams = ngram_embed(b.ngram_ids, b.ngram_offsets).view({B, N1, options_.ngram_dim});
  auto x = dropout(torch::cat({word_embed(words), ngrams}, -1));
  auto lengths = (b.lengths + 1).to(torch::kCPU);  // + ROOT
  auto h1 = dropout(run_lstm(lstm1, x, lengths));
  ParserOutput out;
  out.upos_logits = upos_out(h1);
  auto y = tag_embed(torch::softmax(out.upos_logits, -1));  // W_l p1: the soft tag feeds layer 2
  auto h2 = dropout(layer2(x, y, h1, lengths));
  out.states = h2;
  // the four MLPs over the second layer's states (Dozat & Manning): leaky ReLU, dropout
  auto mlp = [&](torch::nn::Linear& projection) {
    namespace F = torch::nn::functional;
    return dropout(F::leaky_relu(projection(h2), F::LeakyReLUFuncOptions().negative_slope(0.1)));
  };
  torch::Tensor scores;  // [b][dependent i][head j]
  if (options_.arc_scorer == "biaffine") {
    auto dep = mlp(arc_dep);
    auto head = mlp(arc_head);
    scores = torch::matmul(torch::matmul(dep, arc_u), head.transpose(1, 2)) + torch::matmul(head, arc_bias).unsqueeze(1);
  } else {  // m(i, j) = h_j^T W_dp h_i
    scores = torch::matmul(torch::matmul(h2, arc_w.t()), h2.transpose(1, 2));
  }
  // impossible heads: padding positions, and a word heading itself
  auto positions = torch::arange(N1, b.lengths.options()).unsqueeze(0);
  auto valid_head = positions <= b.lengths.unsqueeze(1);  // (B, N+1), ROOT = 0 is valid
  auto mask = valid_head.unsqueeze(1).expand({B, N1, N1}).logical_and(torch::eye(N1, b.lengths.options().dtype(torch::kBool)).logical_not().unsqueeze(0));
  out.arc_scores = scores.masked_fill(mask.logical_not(), -1e9);
  out.label_dep = mlp(label_dep);
  out.label_head = mlp(label_head);
  return out;
}

torch::Tensor BiaffineParserImpl::label_scores(const ParserOutput& out, const torch::Tensor& heads) {
  const int64_t d = options_.label_dim;
  auto index = heads.clamp_min(0).unsqueeze(-1).expand({heads.size(0), heads.size(1), d});
  auto head_of = out.label_head.gather(1, index);  // (B, N+1, d): the head's representation
  return label_bilinear(out.label_dep.contiguous(), head_of.contiguous()) + label_linear(torch::cat({out.label_dep, head_of}, -1));
}

torch::Tensor BiaffineParserImpl::soft_label_scores(const ParserOutput& out, const torch::Tensor& probs) {
  auto head_of = torch::matmul(probs, out.label_head);  // (B, N+1, d): the expected head's representation
  return label_bilinear(out.label_dep.contiguous(), head_of.contiguous()) + label_linear(torch::cat({out.label_dep, head_of}, -1));
}

}  // namespace synmt::parser
