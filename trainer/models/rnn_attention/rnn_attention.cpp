#include "trainer/models/rnn_attention/rnn_attention.h"

#include "core/config.h"

namespace synmt {

RnnAttentionOptions RnnAttentionOptions::from_json(const nlohmann::json& j) {
  RnnAttentionOptions o = options_from_json<RnnAttentionOptions>(j, "model.options (rnn_attention)");
  parse_attention_score(o.attention_score, "model.options.attention_score");
  if (parse_decoder_init(o.decoder_init, "model.options.decoder_init") == DecoderInit::kPosition)
    throw ConfigError("model.options.decoder_init: rnn_attention supports bridge | zero");
  return o;
}

nlohmann::json RnnAttentionOptions::to_json() const { return options_to_json(*this); }

RnnAttentionModel::RnnAttentionModel(RnnAttentionOptions o) : options_(o) {
  if (o.src_vocab <= 0 || o.tgt_vocab <= 0) throw ConfigError("rnn_attention: vocabulary sizes are not set");
  src_embed = register_module("src_embed", torch::nn::Embedding(o.src_vocab, o.embed_dim));
  tgt_embed = register_module("tgt_embed", torch::nn::Embedding(o.tgt_vocab, o.embed_dim));
  encoder = register_module("encoder", BiLstmEncoder(BiLstmEncoderOptions{o.embed_dim, o.encoder_hidden, o.encoder_layers, o.dropout}));
  InputFeedingDecoderOptions d;
  d.embed_dim = o.embed_dim;
  d.hidden = o.decoder_hidden;
  d.layers = o.decoder_layers;
  d.memory_dim = encoder->output_dim();
  d.output_dim = o.embed_dim;
  d.score = parse_attention_score(o.attention_score, "rnn_attention");
  d.init = parse_decoder_init(o.decoder_init, "rnn_attention");
  d.dropout = o.dropout;
  decoder = register_module("decoder", InputFeedingDecoder(d));
  if (!o.tie_target_embeddings) output_proj = register_module("output_proj", torch::nn::Linear(o.embed_dim, o.tgt_vocab));
  dropout = register_module("dropout", torch::nn::Dropout(o.dropout));
  target_ = InputFeedingTarget{tgt_embed, decoder, output_proj, dropout};
  torch::NoGradGuard no_grad;
  for (auto& p : parameters()) p.uniform_(-o.init_range, o.init_range);
}

DecodeState RnnAttentionModel::encode(const SourceInput& input) {
  auto memory = encoder(dropout(src_embed(input.tokens)), input.lengths);
  auto allowed = length_mask(input.lengths, input.tokens.size(1), input.tokens.device());
  DecodeState state;
  decoder->start(state, dropout(memory), allowed, memory, input.lengths);
  return state;
}

ModelOutput RnnAttentionModel::forward(const SourceInput& src, const torch::Tensor& tgt_in, const ForwardRequest& request) {
  DecodeState state = encode(src);
  ModelOutput out;
  target_.teacher_forced(state, tgt_in, request, out);
  return out;
}

torch::Tensor RnnAttentionModel::step(DecodeState& state, const torch::Tensor& prev_tokens) { return target_.step(state, prev_tokens); }

nlohmann::json RnnAttentionModel::describe() const { return {{"family", kFamily}, {"options", options_.to_json()}}; }

}  // namespace synmt
