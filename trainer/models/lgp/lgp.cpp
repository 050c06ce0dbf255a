#include "trainer/models/lgp/lgp.h"

#include <torch/nn/utils/rnn.h>

#include <algorithm>
#include <stdexcept>

#include "core/config.h"
#include "core/error.h"
#include "trainer/models/registry.h"
#include "trainer/nn/rnn_encoder.h"
#include "trainer/parser/builtin_parser.h"
#include "trainer/parser/parser_vocab.h"
#include "core/special_tokens.h"

namespace synmt {

LgpHeads parse_lgp_heads(const std::string& name) {
  if (name == "latent") return LgpHeads::kLatent;
  if (name == "uniform") return LgpHeads::kUniform;
  if (name == "parsed") return LgpHeads::kParsed;
  if (name == "none") return LgpHeads::kNone;
  throw ConfigError("model.options.heads '" + name + "' is none of latent | uniform | parsed | none");
}

LgpOptions LgpOptions::from_json(const nlohmann::json& j) {
  LgpOptions o = options_from_json<LgpOptions>(j, "model.options (lgp)");
  parse_lgp_heads(o.heads);
  if (o.arc_scorer != "bilinear" && o.arc_scorer != "biaffine")
    throw ConfigError("model.options.arc_scorer '" + o.arc_scorer + "' is none of bilinear | biaffine");
  if (o.parser_layer2 != "per_direction" && o.parser_layer2 != "joint")
    throw ConfigError("model.options.parser_layer2 '" + o.parser_layer2 + "' is none of per_direction | joint");
  if (o.upos < 1 || o.labels < 1) throw ConfigError("model.options: upos and labels must be >= 1");
  return o;
}

nlohmann::json LgpOptions::to_json() const { return options_to_json(*this); }

namespace {

// The parser's view of the source vocabulary: NMT ids are the parser's word ids; n-grams from the
// tokens. Without tokens (models built for tests) words have no n-grams.
parser::ParserVocab source_parser_vocab(const LgpOptions& o) {
  if (o.src_words.empty()) return parser::ParserVocab::for_nmt_vocab({"<pad>", "<unk>", "<s>", "</s>"}, {}, {});
  if (static_cast<int64_t>(o.src_words.size()) != o.src_vocab)
    throw ConfigError("lgp: src_words has " + std::to_string(o.src_words.size()) + " tokens, the source vocabulary " +
                      std::to_string(o.src_vocab));
  return parser::ParserVocab::for_nmt_vocab(o.src_words, {}, {});
}

// (V, G) n-gram ids per source word id (0 = none); <s>'s id is the parser's ROOT with the root n-gram.
torch::Tensor ngram_table(const LgpOptions& o, const parser::ParserVocab& vocab) {
  std::vector<std::vector<int32_t>> rows(static_cast<std::size_t>(o.src_vocab));
  rows[static_cast<std::size_t>(parser::ParserVocab::kRoot)] = {1};
  for (std::size_t k = 4; k < o.src_words.size(); ++k) rows[k] = vocab.ngram_ids(o.src_words[k]);
  std::size_t width = 1;
  for (const auto& r : rows) width = std::max(width, r.size());
  auto table = torch::zeros({o.src_vocab, static_cast<int64_t>(width)}, torch::kInt64);
  auto a = table.accessor<int64_t, 2>();
  for (std::size_t k = 0; k < rows.size(); ++k)
    for (std::size_t g = 0; g < rows[k].size(); ++g) a[static_cast<int64_t>(k)][static_cast<int64_t>(g)] = rows[k][g];
  return table;
}

// The states (B, S, H) and each sentence's memory cell at its last position (B, H).
std::pair<torch::Tensor, torch::Tensor> run_lstm(torch::nn::LSTM& lstm, const torch::Tensor& x, const torch::Tensor& lengths) {
  namespace rnn = torch::nn::utils::rnn;
  auto packed = rnn::pack_padded_sequence(x, lengths.to(torch::kCPU), /*batch_first=*/true, /*enforce_sorted=*/false);
  auto [out, final_state] = lstm->forward_with_packed_input(packed);
  auto states = std::get<0>(rnn::pad_packed_sequence(out, /*batch_first=*/true, 0.0, x.size(1)));
  return {states, std::get<1>(final_state).select(0, 0)};  // one layer: c_n[0], in the batch's order
}

// forget-gate bias 1 (the paper's), split over LibTorch's two bias vectors
void forget_bias_one(torch::nn::Module& lstm_like, int64_t hidden) {
  for (auto& p : lstm_like.named_parameters())
    if (p.key().find("bias") != std::string::npos) p.value().zero_().narrow(0, hidden, hidden).fill_(0.5);
}

}  // namespace

int64_t LgpOptions::label_classes() const { return parse_lgp_heads(heads) == LgpHeads::kParsed ? src_labels : labels; }

parser::ParserOptions LgpOptions::parser_options() const {
  parser::ParserOptions p;
  p.words = src_vocab;
  p.ngrams = source_parser_vocab(*this).ngrams();
  p.upos = upos;
  p.labels = labels;
  p.word_dim = word_dim;
  p.ngram_dim = ngram_dim;
  p.lstm_hidden = parser_hidden;
  p.tag_dim = tag_dim;
  p.arc_dim = arc_dim;
  p.label_dim = label_dim;
  p.dropout = parser_dropout;
  p.word_dropout = word_dropout;
  p.arc_scorer = arc_scorer;
  p.zero_softmax_init = true;  // §4.2
  p.layer2_input = parser_layer2;
  return p;
}

parser::ParserOptions lgp_parser_options(const nlohmann::json& train_config, const Vocab& src_vocab) {
  if (!train_config.contains("model")) throw ConfigError("lgp parser options: the config has no model section");
  auto resolved = resolve_model_config(train_config["model"]);
  if (resolved["family"] != "lgp") throw ConfigError("lgp parser options: the config's model is of family " + resolved["family"].dump());
  auto options = LgpOptions::from_json(resolved["options"]);
  options.src_vocab = static_cast<int64_t>(src_vocab.size());
  options.src_words.clear();
  for (std::size_t k = 0; k < src_vocab.size(); ++k) options.src_words.push_back(src_vocab.token(static_cast<int32_t>(k)));
  return options.parser_options();
}

LgpModel::LgpModel(LgpOptions o) : options_(std::move(o)), heads_mode_(parse_lgp_heads(options_.heads)) {
  const auto& op = options_;
  if (op.src_vocab <= 0 || op.tgt_vocab <= 0) throw ConfigError("lgp: vocabulary sizes are not set");
  if (heads_mode_ == LgpHeads::kParsed && op.src_labels <= 0)
    throw ConfigError("lgp: heads = parsed needs parsed source data (its label inventory sets src_labels)");
  parser_vocab_ = source_parser_vocab(op);
  parser_ = register_module("parser", parser::BiaffineParser(op.parser_options()));
  ngram_table_ = register_buffer("ngram_table", ngram_table(op, parser_vocab_));
  const int64_t d2 = 2 * op.parser_hidden, d3 = op.hidden, E = op.embed_dim;
  src_embed = register_module("src_embed", torch::nn::Embedding(op.src_vocab, E));
  tgt_embed = register_module("tgt_embed", torch::nn::Embedding(op.tgt_vocab, E));
  encoder = register_module("encoder", torch::nn::LSTM(torch::nn::LSTMOptions(E + d2, d3).batch_first(true)));
  if (heads_mode_ != LgpHeads::kNone)
    compose = register_module("compose", torch::nn::Linear(torch::nn::LinearOptions(2 * d3 + op.label_classes(), d3).bias(op.dep_bias)));
  InputFeedingDecoderOptions d;
  d.embed_dim = E;
  d.hidden = d3;
  d.layers = 1;
  d.memory_dim = d3;
  d.output_dim = E;  // tied to the target embeddings
  d.score = AttentionScore::kDot;
  d.init = DecoderInit::kPosition;
  d.dropout = op.dropout;
  if (heads_mode_ != LgpHeads::kNone) d.extra_memories.push_back(ExtraMemoryOptions{"dep", d3, false, AttentionScore::kDot, false});
  decoder = register_module("decoder", InputFeedingDecoder(d));
  target_ = InputFeedingTarget{tgt_embed, decoder, nullptr, nullptr};
  torch::NoGradGuard no_grad;
  for (auto& p : named_parameters())
    if (p.key().rfind("parser.", 0) != 0) p.value().uniform_(-op.init_range, op.init_range);
  forget_bias_one(*encoder, d3);
  for (auto& child : decoder->named_children())
    if (child.key().rfind("cell_", 0) == 0) forget_bias_one(*child.value(), d3);
}

std::set<std::string> LgpModel::required_features() const {
  if (heads_mode_ == LgpHeads::kParsed) return {kSourceFeatureParentFirst, kSourceFeatureLabel};
  return {};
}

std::map<std::string, std::string> LgpModel::analysis_axes() const {
  std::map<std::string, std::string> axes{{"source_attention", "tgt src"}};
  if (heads_mode_ != LgpHeads::kNone) axes["heads"] = "src src";
  return axes;
}

parser::ParserBatch LgpModel::parser_batch(const SourceInput& src) const {
  const int64_t B = src.tokens.size(0);
  parser::ParserBatch b;
  b.words = torch::cat({torch::full({B, 1}, parser::ParserVocab::kRoot, src.tokens.options()), src.tokens}, 1);
  auto rows = ngram_table_.index_select(0, b.words.reshape({-1}));  // (B * (N+1), G)
  // <unk>'s table row is empty, so the surface forms' n-grams are appended as extra columns
  if (auto unknown = unknown_word_ngrams(src); unknown.defined()) rows = torch::cat({rows, unknown.to(rows.device())}, 1);
  auto present = rows.gt(0);
  auto counts = present.sum(1);
  b.ngram_ids = rows.masked_select(present);
  b.ngram_offsets = counts.cumsum(0) - counts;
  b.lengths = src.lengths.to(src.tokens.device());
  return b;
}

torch::Tensor LgpModel::unknown_word_ngrams(const SourceInput& src) const {
  if (options_.src_words.empty()) return {};  // a model built without vocabulary tokens has no n-grams
  const auto tokens = src.tokens.to(torch::kCPU);
  if (!tokens.eq(special::kUnk).any().item<bool>()) return {};
  if (!src.has_unknown_forms)
    throw ConfigError("lgp: the source has <unk> words without their surface forms, which the parser's character n-grams "
                      "need (a dataset binarised by an older synmt: binarise it again)");
  const int64_t B = tokens.size(0), S = tokens.size(1);
  if (static_cast<int64_t>(src.unknown_forms.size()) != B)
    throw std::invalid_argument("lgp: surface forms for " + std::to_string(src.unknown_forms.size()) + " of " + std::to_string(B) + " sentences");
  std::vector<std::vector<int32_t>> rows(static_cast<std::size_t>(B * (S + 1)));
  std::size_t width = 1;
  auto t = tokens.accessor<int64_t, 2>();
  for (int64_t b = 0; b < B; ++b) {
    const auto& forms = src.unknown_forms[static_cast<std::size_t>(b)];
    std::size_t next = 0;
    for (int64_t k = 0; k < S; ++k) {
      if (t[b][k] != special::kUnk) continue;
      if (next == forms.size())
        throw std::invalid_argument("lgp: sentence " + std::to_string(b) + " has more <unk> tokens than surface forms");
      auto& row = rows[static_cast<std::size_t>(b * (S + 1) + k + 1)];  // parser position k + 1 (ROOT at 0)
      row = parser_vocab_.ngram_ids(forms[next++]);
      width = std::max(width, row.size());
    }
  }
  auto out = torch::zeros({B * (S + 1), static_cast<int64_t>(width)}, torch::kInt64);
  auto a = out.accessor<int64_t, 2>();
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t g = 0; g < rows[r].size(); ++g) a[static_cast<int64_t>(r)][static_cast<int64_t>(g)] = rows[r][g];
  return out;
}

LgpModel::Graph LgpModel::graph(const SourceInput& src) {
  Graph g;
  g.parser = parser_->forward(parser_batch(src));
  if (heads_mode_ == LgpHeads::kNone) return g;
  const int64_t B = src.tokens.size(0), S = src.tokens.size(1);
  switch (heads_mode_) {
    case LgpHeads::kLatent: g.heads = torch::softmax(g.parser.arc_scores, -1); break;
    case LgpHeads::kUniform: {  // 1/N over the N candidate heads (ROOT and the other words)
      auto candidates = g.parser.arc_scores.gt(-1e8).to(g.parser.arc_scores.dtype());
      g.heads = candidates / candidates.sum(-1, true).clamp_min(1);
      break;
    }
    case LgpHeads::kParsed: {  // the parse cache's 1-best: a word whose parent is itself is the root
      const auto& parent = src.feature(kSourceFeatureParentFirst, "lgp (heads = parsed)");
      auto self = torch::arange(S, parent.options()).unsqueeze(0).expand({B, S});
      auto head = torch::where(parent.eq(self), torch::zeros_like(parent), parent + 1).clamp(0, S);
      auto rows = torch::one_hot(head, S + 1).to(g.parser.arc_scores.dtype());  // (B, S, S+1)
      g.heads = torch::cat({torch::zeros({B, 1, S + 1}, rows.options()), rows}, 1);
      break;
    }
    case LgpHeads::kNone: break;
  }
  if (heads_mode_ == LgpHeads::kParsed) {
    const auto& label = src.feature(kSourceFeatureLabel, "lgp (heads = parsed)");
    if (label.numel() > 0 && label.max().item<int64_t>() >= options_.src_labels)
      throw ConfigError("lgp: a label id is outside the pair's label inventory of " + std::to_string(options_.src_labels));
    auto rows = torch::one_hot(label, options_.src_labels).to(g.heads.dtype());
    g.labels = torch::cat({torch::zeros({B, 1, options_.src_labels}, rows.options()), rows}, 1);
  } else {
    g.labels = torch::softmax(parser_->soft_label_scores(g.parser, g.heads), -1);
  }
  return g;
}

DecodeState LgpModel::encode_with(const SourceInput& src, ModelOutput* analysis) {
  const int64_t B = src.tokens.size(0), S = src.tokens.size(1);
  const auto device = src.tokens.device();
  auto lengths = src.lengths.to(device);
  auto g = graph(src);
  const auto& h2 = g.parser.states;  // (B, S+1, 2 d1), ROOT at 0
  const int64_t d2 = h2.size(2);
  // layer 3 runs over the words and then </s> (position len), which stands for ROOT
  auto tokens = torch::cat({src.tokens, torch::full({B, 1}, special::kPad, src.tokens.options())}, 1)
                    .scatter(1, lengths.view({B, 1}), torch::full({B, 1}, special::kEos, src.tokens.options()));
  auto h2_enc = torch::cat({h2.narrow(1, 1, S), torch::zeros({B, 1, d2}, h2.options())}, 1)
                    .scatter(1, lengths.view({B, 1, 1}).expand({B, 1, d2}), h2.select(1, 0).unsqueeze(1));
  auto [states, last_cell] = run_lstm(encoder, torch::cat({src_embed(tokens), h2_enc}, -1), lengths + 1);  // (B, S+1, d3)
  auto allowed = length_mask(lengths + 1, S + 1, device);
  DecodeState state;
  // §3.2: the decoder's "initial state is set with h_{N+1} and its corresponding memory cell"
  decoder->start(state, states, allowed, states, lengths + 1, lengths, last_cell);
  if (heads_mode_ == LgpHeads::kNone) return state;
  // p(H_i = .) of the words in layer 3's order: head word j at j - 1, ROOT at </s>
  auto word_heads = g.heads.narrow(1, 1, S);  // (B, S, S+1), parser order
  auto heads = torch::cat({word_heads.narrow(2, 1, S), torch::zeros({B, S, 1}, word_heads.options())}, 2)
                   .scatter_add(2, lengths.view({B, 1, 1}).expand({B, S, 1}), word_heads.narrow(2, 0, 1));
  auto expected_head = torch::bmm(heads, states);  // h(H_i) = sum_j p(H_i = j) h_j
  auto dep = torch::tanh(compose(torch::cat({states.narrow(1, 0, S), expected_head, g.labels.narrow(1, 1, S)}, -1)));
  InputFeedingDecoderImpl::add_memory(state, "dep", dep, length_mask(lengths, S, device));
  if (analysis)  // row i: word i's heads over the words, p(ROOT) on the diagonal
    analysis->analysis["heads"] = word_heads.narrow(2, 1, S) + torch::diag_embed(word_heads.select(2, 0));
  return state;
}

DecodeState LgpModel::encode(const SourceInput& src) { return encode_with(src, nullptr); }

ModelOutput LgpModel::forward(const SourceInput& src, const torch::Tensor& tgt_in, const ForwardRequest& request) {
  ModelOutput out;
  DecodeState state = encode_with(src, request.analysis ? &out : nullptr);
  target_.teacher_forced(state, tgt_in, request, out);
  if (request.analysis)  // over the words (the </s> position N+1 is left out of the dump)
    out.analysis["source_attention"] = out.analysis["source_attention"].narrow(2, 0, src.tokens.size(1));
  out.output_weight = tgt_embed->weight;  // BlackOut samples its own rows of the tied output layer
  return out;
}

torch::Tensor LgpModel::step(DecodeState& state, const torch::Tensor& prev_tokens) { return target_.step(state, prev_tokens); }

nlohmann::json LgpModel::describe() const { return {{"family", kFamily}, {"options", options_.to_json()}}; }

void LgpModel::load_pretrained_parser(const std::string& path) {
  auto pretrained = parser::BuiltinParser::load(path);
  if (pretrained.model()->options().to_json() != options_.parser_options().to_json())
    throw InputError(path, 0, "its parser options " + pretrained.model()->options().to_json().dump() + " differ from this model's " +
                                  options_.parser_options().to_json().dump() + " (pre-train with the model's sizes and --nmt-vocab)");
  if (!options_.src_words.empty() && pretrained.vocab().word_list() != options_.src_words)
    throw InputError(path, 0, "was pre-trained on another word vocabulary than this model's source vocabulary");
  auto source = pretrained.model()->named_parameters();
  torch::NoGradGuard no_grad;
  for (auto& p : parser_->named_parameters()) p.value().copy_(source[p.key()]);
}

}  // namespace synmt
