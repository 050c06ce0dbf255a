#include "trainer/models/transformer/transformer.h"

#include <torch/nn/init.h>

#include <cmath>

#include "core/config.h"
#include "core/special_tokens.h"

namespace synmt {

TransformerOptions TransformerOptions::from_json(const nlohmann::json& j) {
  TransformerOptions o = options_from_json<TransformerOptions>(j, "model.options (transformer)");
  if (!o.score_modifiers.is_array() || !o.embedding_inputs.is_array())
    throw ConfigError("model.options (transformer): score_modifiers and embedding_inputs are lists");
  for (auto& spec : o.score_modifiers) spec = complete_score_modifier(spec);
  for (auto& spec : o.embedding_inputs) spec = complete_embedding_input(spec);
  return o;
}

nlohmann::json TransformerOptions::to_json() const { return options_to_json(*this); }

namespace {
torch::nn::Embedding make_embedding(int64_t vocab, int64_t dim) {
  torch::nn::Embedding e(torch::nn::EmbeddingOptions(vocab, dim).padding_idx(special::kPad));
  torch::NoGradGuard no_grad;
  // N(0, d^-1/2) as in fairseq/tensor2tensor, so that the sqrt(d)-scaled embeddings have unit scale
  e->weight.normal_(0.0, std::pow(static_cast<double>(dim), -0.5));
  e->weight[special::kPad].zero_();
  return e;
}
}  // namespace

TransformerModel::TransformerModel(TransformerOptions o) : options_(o) {
  if (o.src_vocab <= 0 || o.tgt_vocab <= 0) throw ConfigError("transformer: vocabulary sizes are not set");
  if (o.share_all_embeddings && o.src_vocab != o.tgt_vocab)
    throw ConfigError("transformer: share_all_embeddings needs one joint vocabulary (sizes " + std::to_string(o.src_vocab) +
                      " and " + std::to_string(o.tgt_vocab) + ")");
  tgt_embed = register_module("tgt_embed", make_embedding(o.tgt_vocab, o.model_dim));
  src_embed = o.share_all_embeddings ? tgt_embed : register_module("src_embed", make_embedding(o.src_vocab, o.model_dim));
  for (int64_t l = 0; l < o.encoder_layers; ++l)
    encoder_layers.push_back(register_module("encoder_" + std::to_string(l), TransformerEncoderLayer(o.layer())));
  for (int64_t l = 0; l < o.decoder_layers; ++l)
    decoder_layers.push_back(register_module("decoder_" + std::to_string(l), TransformerDecoderLayer(o.layer())));
  if (o.pre_norm) {
    encoder_norm = register_module("encoder_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({o.model_dim})));
    decoder_norm = register_module("decoder_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({o.model_dim})));
  }
  if (!o.tie_target_embeddings) {
    output_proj = register_module("output_proj", torch::nn::Linear(torch::nn::LinearOptions(o.model_dim, o.tgt_vocab).bias(false)));
    torch::NoGradGuard no_grad;
    output_proj->weight.normal_(0.0, std::pow(static_cast<double>(o.model_dim), -0.5));
  }
  dropout = register_module("dropout", torch::nn::Dropout(o.dropout));
  // Syntax modules last: the baseline's parameters (and so its seeded initialisation) stay as they are.
  const SyntaxModuleSizes sizes{o.model_dim, o.heads, o.encoder_layers, o.src_labels, o.src_upos};
  for (std::size_t i = 0; i < o.score_modifiers.size(); ++i)
    score_modifiers_.push_back(register_module("score_modifier_" + std::to_string(i), make_score_modifier(o.score_modifiers[i], sizes)));
  for (std::size_t i = 0; i < o.embedding_inputs.size(); ++i)
    embedding_inputs_.push_back(register_module("embedding_input_" + std::to_string(i), make_embedding_input(o.embedding_inputs[i], sizes)));
}

std::map<std::string, std::string> TransformerModel::analysis_axes() const {
  std::map<std::string, std::string> axes{{"source_attention", "tgt src"}};
  for (int64_t l = 0; l < options_.encoder_layers; ++l)
    axes["encoder_attention_" + std::to_string(l)] = std::to_string(options_.heads) + " src src";
  return axes;
}

std::set<std::string> TransformerModel::required_features() const {
  std::set<std::string> all;
  for (const auto& m : score_modifiers_) {
    auto own = m->required_features();
    all.insert(own.begin(), own.end());
  }
  for (const auto& m : embedding_inputs_) {
    auto own = m->required_features();
    all.insert(own.begin(), own.end());
  }
  return all;
}

torch::Tensor TransformerModel::embed(torch::nn::Embedding& table, const torch::Tensor& tokens, int64_t first_position,
                                      const SeamContext* source) {
  auto x = table->forward(tokens) * std::sqrt(static_cast<double>(options_.model_dim));
  if (source)
    for (auto& input : embedding_inputs_) x = input->apply(x, *source);
  // positions come from a table kept on the model's device (grown on demand): computing them on
  // the CPU and copying them over for every forward pass and decoding step stalled a GPU
  const int64_t needed = first_position + tokens.size(1);
  if (!positions_.defined() || positions_.size(0) < needed || positions_.device() != x.device())
    positions_ = sinusoidal_positions(std::max<int64_t>(needed, 1024), options_.model_dim).to(x.device());
  x = x + positions_.narrow(0, first_position, tokens.size(1)).unsqueeze(0);
  return dropout(x);
}

torch::Tensor TransformerModel::encode_memory(const SourceInput& src, torch::Tensor& src_allowed, ModelOutput* output,
                                              bool analysis) {
  const int64_t S = src.tokens.size(1);
  auto real = torch::arange(S, src.tokens.options()).unsqueeze(0) < src.lengths.to(src.tokens.device()).unsqueeze(1);
  src_allowed = real.view({src.tokens.size(0), 1, 1, S});
  const SeamContext context{src, output};
  auto x = embed(src_embed, src.tokens, 0, &context);
  for (std::size_t l = 0; l < encoder_layers.size(); ++l) {
    AttentionCall call;
    torch::Tensor probabilities;
    if (output && analysis) call.probabilities = &probabilities;
    call.allowed = src_allowed;
    for (auto& m : score_modifiers_)
      if (m->layer() == static_cast<int64_t>(l)) call.modifiers.push_back(m.get());
    call.context = &context;
    x = encoder_layers[l]->forward(x, call);
    if (call.probabilities) output->analysis["encoder_attention_" + std::to_string(l)] = probabilities;
  }
  return options_.pre_norm ? encoder_norm(x) : x;
}

torch::Tensor TransformerModel::output_log_probs(const torch::Tensor& x) {
  auto h = options_.pre_norm ? decoder_norm(x) : x;
  auto logits = options_.tie_target_embeddings ? torch::matmul(h, tgt_embed->weight.t()) : output_proj(h);
  return torch::log_softmax(logits, -1);
}

ModelOutput TransformerModel::forward(const SourceInput& src, const torch::Tensor& tgt_in, const ForwardRequest& request) {
  ModelOutput out;
  torch::Tensor src_allowed;
  auto memory = encode_memory(src, src_allowed, &out, request.analysis);
  const int64_t T = tgt_in.size(1);
  auto causal = torch::ones({T, T}, torch::TensorOptions().dtype(torch::kBool).device(tgt_in.device())).tril().view({1, 1, T, T});
  auto x = embed(tgt_embed, tgt_in, 0);
  for (std::size_t l = 0; l < decoder_layers.size(); ++l) {
    auto& layer = decoder_layers[l];
    DecoderLayerCache cache;
    std::tie(cache.cross_keys, cache.cross_values) = layer->cross_keys_values(memory);
    torch::Tensor cross;
    const bool dump = request.analysis && l + 1 == decoder_layers.size();
    x = layer->forward(x, cache, causal, src_allowed, dump ? &cross : nullptr);
    if (dump) out.analysis["source_attention"] = cross.mean(1);
  }
  out.hidden = x;
  if (request.log_probs) out.log_probs = output_log_probs(x);
  return out;
}

DecodeState TransformerModel::encode(const SourceInput& src) {
  torch::Tensor src_allowed;
  auto memory = encode_memory(src, src_allowed, nullptr);
  DecodeState state;
  state["src_allowed"] = src_allowed;
  state.per_sentence.insert("src_allowed");
  const int64_t B = src.batch_size(), dk = options_.model_dim / options_.heads;
  for (std::size_t l = 0; l < decoder_layers.size(); ++l) {
    auto [k, v] = decoder_layers[l]->cross_keys_values(memory);
    const std::string n = std::to_string(l);
    state["cross_k" + n] = k;
    state["cross_v" + n] = v;
    state.per_sentence.insert({"cross_k" + n, "cross_v" + n});
    state["self_k" + n] = torch::zeros({B, options_.heads, 0, dk}, memory.options());
    state["self_v" + n] = torch::zeros({B, options_.heads, 0, dk}, memory.options());
  }
  return state;
}

torch::Tensor TransformerModel::step(DecodeState& state, const torch::Tensor& prev_tokens) {
  const int64_t position = state["self_k0"].size(2);
  auto x = embed(tgt_embed, prev_tokens.unsqueeze(1), position);  // (N, 1, D)
  for (std::size_t l = 0; l < decoder_layers.size(); ++l) {
    const std::string n = std::to_string(l);
    DecoderLayerCache cache{state["self_k" + n], state["self_v" + n], state["cross_k" + n], state["cross_v" + n]};
    torch::Tensor cross;  // the last layer's source attention, averaged over heads, is the one dumped
    const bool last = l + 1 == decoder_layers.size();
    x = decoder_layers[l]->forward(x, cache, torch::Tensor(), state["src_allowed"], last ? &cross : nullptr);
    if (last) state["attention"] = cross.mean(1).squeeze(1);
    state["self_k" + n] = cache.self_keys;
    state["self_v" + n] = cache.self_values;
  }
  return output_log_probs(x).squeeze(1);
}

nlohmann::json TransformerModel::describe() const { return {{"family", kFamily}, {"options", options_.to_json()}}; }

}  // namespace synmt
