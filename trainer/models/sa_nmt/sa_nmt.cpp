#include "trainer/models/sa_nmt/sa_nmt.h"

#include "core/config.h"

namespace synmt {

SaNmtOptions SaNmtOptions::from_json(const nlohmann::json& j) {
  SaNmtOptions o = options_from_json<SaNmtOptions>(j, "model.options (sa_nmt)");
  if (o.syntax != "none") parse_head_selection(o.syntax, "model.options.syntax");
  if (o.one_set && o.syntax == "none") throw ConfigError("model.options.one_set needs syntax flat | tree | hard");
  if (o.mask_punct_heads && o.syntax == "none") throw ConfigError("model.options.mask_punct_heads needs syntax flat | tree | hard");
  return o;
}

nlohmann::json SaNmtOptions::to_json() const { return options_to_json(*this); }

SaNmtModel::SaNmtModel(SaNmtOptions o) : options_(o) {
  if (o.src_vocab <= 0 || o.tgt_vocab <= 0) throw ConfigError("sa_nmt: vocabulary sizes are not set");
  src_embed = register_module("src_embed", torch::nn::Embedding(o.src_vocab, o.embed_dim));
  tgt_embed = register_module("tgt_embed", torch::nn::Embedding(o.tgt_vocab, o.embed_dim));
  encoder = register_module("encoder", BiLstmEncoder(BiLstmEncoderOptions{o.embed_dim, o.encoder_hidden, o.encoder_layers, o.dropout}));
  const int64_t memory_dim = encoder->output_dim();
  InputFeedingDecoderOptions d;
  d.embed_dim = o.embed_dim;
  d.hidden = o.decoder_hidden;
  d.layers = o.decoder_layers;
  d.memory_dim = memory_dim;
  d.output_dim = o.embed_dim;
  d.dropout = o.dropout;
  if (has_syntax() && !o.one_set) {
    ExtraMemoryOptions m;
    m.name = "syntax";
    m.dim = memory_dim;
    m.shared_attention = o.shared_attention;
    m.gate = o.gate;
    d.extra_memories.push_back(m);
  }
  decoder = register_module("decoder", InputFeedingDecoder(d));
  if (has_syntax()) {
    heads = register_module("heads", StructuredAttention(StructuredAttentionOptions{
                                         memory_dim, memory_dim, parse_head_selection(o.syntax, "sa_nmt"), o.float64_marginals}));
    if (o.one_set) one_set_gate = register_module("one_set_gate", torch::nn::Linear(memory_dim, memory_dim));
  }
  if (!o.tie_target_embeddings) output_proj = register_module("output_proj", torch::nn::Linear(o.embed_dim, o.tgt_vocab));
  dropout = register_module("dropout", torch::nn::Dropout(o.dropout));
  target_ = InputFeedingTarget{tgt_embed, decoder, output_proj, dropout};
  torch::NoGradGuard no_grad;
  for (auto& p : parameters()) p.uniform_(-o.init_range, o.init_range);
}

std::map<std::string, std::string> SaNmtModel::analysis_axes() const {
  std::map<std::string, std::string> axes{{"source_attention", "tgt src"}};
  if (has_syntax()) axes.insert({{"phi", "src src"}, {"beta", "src src"}});
  if (has_syntax() && !options_.one_set && options_.gate) axes["gate_norm"] = "tgt";
  return axes;
}

DecodeState SaNmtModel::encode_with(const SourceInput& input, ModelOutput* analysis) {
  auto states = encoder(dropout(src_embed(input.tokens)), input.lengths);
  auto allowed = length_mask(input.lengths, input.tokens.size(1), input.tokens.device());
  DecodeState state;
  if (!has_syntax()) {
    decoder->start(state, dropout(states), allowed, states, input.lengths);
    return state;
  }
  torch::Tensor may_head;
  if (options_.mask_punct_heads && !options_.punct_ids.empty()) {
    auto punct = torch::tensor(options_.punct_ids, torch::TensorOptions().dtype(torch::kInt64).device(input.tokens.device()));
    may_head = torch::isin(input.tokens, punct).logical_not();
  }
  auto selected = heads(states, input.lengths, may_head);
  if (analysis) {
    analysis->analysis["phi"] = selected.phi;
    analysis->analysis["beta"] = selected.beta;
  }
  if (options_.one_set) {  // s'_i = s_i + sigma(W_g s_i) * m_i: one annotation set, one attention
    auto merged = states + torch::sigmoid(one_set_gate(states)) * selected.annotations;
    decoder->start(state, dropout(merged), allowed, merged, input.lengths);
  } else {
    decoder->start(state, dropout(states), allowed, states, input.lengths);
    InputFeedingDecoderImpl::add_memory(state, "syntax", dropout(selected.annotations), allowed);
  }
  return state;
}

DecodeState SaNmtModel::encode(const SourceInput& src) { return encode_with(src, nullptr); }

ModelOutput SaNmtModel::forward(const SourceInput& src, const torch::Tensor& tgt_in, const ForwardRequest& request) {
  ModelOutput out;
  DecodeState state = encode_with(src, request.analysis ? &out : nullptr);
  const bool gated = has_syntax() && !options_.one_set && options_.gate;
  std::map<std::string, torch::Tensor> record;
  if (gated) record["gate/syntax"] = torch::Tensor();
  record = target_.teacher_forced(state, tgt_in, request, out, std::move(record));
  if (request.analysis && gated) out.analysis["gate_norm"] = record["gate/syntax"].norm(2, -1);  // z_t = ||sigma(W_g h_t)||_2
  return out;
}

torch::Tensor SaNmtModel::step(DecodeState& state, const torch::Tensor& prev_tokens) { return target_.step(state, prev_tokens); }

nlohmann::json SaNmtModel::describe() const { return {{"family", kFamily}, {"options", options_.to_json()}}; }

}  // namespace synmt
