#include "trainer/models/rnn_attention/rnn_attention.h"

#include <torch/nn/functional/activation.h>
#include <torch/nn/init.h>
#include <torch/nn/utils/rnn.h>

#include "core/config.h"

namespace synmt {

RnnAttentionOptions RnnAttentionOptions::from_json(const nlohmann::json& j) {
  RnnAttentionOptions o = options_from_json<RnnAttentionOptions>(j, "model.options (rnn_attention)");
  return o;
}

nlohmann::json RnnAttentionOptions::to_json() const { return options_to_json(*this); }

RnnAttentionModel::RnnAttentionModel(RnnAttentionOptions o) : options_(o) {
  if (o.src_vocab <= 0 || o.tgt_vocab <= 0) throw ConfigError("rnn_attention: vocabulary sizes are not set");
  const int64_t memory_dim = 2 * o.encoder_hidden;
  src_embed = register_module("src_embed", torch::nn::Embedding(o.src_vocab, o.embed_dim));
  tgt_embed = register_module("tgt_embed", torch::nn::Embedding(o.tgt_vocab, o.embed_dim));
  encoder = register_module("encoder", torch::nn::LSTM(torch::nn::LSTMOptions(o.embed_dim, o.encoder_hidden)
                                                           .num_layers(o.encoder_layers)
                                                           .bidirectional(true)
                                                           .batch_first(true)
                                                           .dropout(o.encoder_layers > 1 ? o.dropout : 0.0)));
  bridge_h = register_module("bridge_h", torch::nn::Linear(memory_dim, o.decoder_layers * o.decoder_hidden));
  bridge_c = register_module("bridge_c", torch::nn::Linear(memory_dim, o.decoder_layers * o.decoder_hidden));
  for (int64_t l = 0; l < o.decoder_layers; ++l) {
    int64_t in = l == 0 ? 2 * o.embed_dim : o.decoder_hidden;  // input feeding: [E(y); u]
    decoder_cells.push_back(
        register_module("decoder_cell_" + std::to_string(l), torch::nn::LSTMCell(in, o.decoder_hidden)));
  }
  attn_score = register_module("attn_score", torch::nn::Linear(torch::nn::LinearOptions(o.decoder_hidden, memory_dim).bias(false)));
  attn_combine = register_module("attn_combine",
                                 torch::nn::Linear(torch::nn::LinearOptions(o.decoder_hidden + memory_dim, o.embed_dim).bias(false)));
  if (!o.tie_target_embeddings) output_proj = register_module("output_proj", torch::nn::Linear(o.embed_dim, o.tgt_vocab));
  dropout = register_module("dropout", torch::nn::Dropout(o.dropout));
  torch::NoGradGuard no_grad;
  for (auto& p : parameters()) p.uniform_(-o.init_range, o.init_range);
}

DecodeState RnnAttentionModel::encode(const SourceInput& input) {
  const auto& src = input.tokens;
  const auto& src_len = input.lengths;
  const int64_t S = src.size(1);
  auto embedded = dropout(src_embed(src));
  auto packed = torch::nn::utils::rnn::pack_padded_sequence(embedded, src_len.to(torch::kCPU), /*batch_first=*/true,
                                                            /*enforce_sorted=*/false);
  auto out = std::get<0>(encoder->forward_with_packed_input(packed));
  auto memory = std::get<0>(torch::nn::utils::rnn::pad_packed_sequence(out, /*batch_first=*/true, 0.0, S));
  auto mask = torch::arange(S, src.options()).unsqueeze(0) < src_len.to(src.device()).unsqueeze(1);  // (B, S)
  auto mean = memory.sum(1) / src_len.to(memory.dtype()).unsqueeze(1);
  DecodeState state;
  state["memory"] = dropout(memory);
  state["mask"] = mask;
  state.per_sentence.insert({"memory", "mask"});
  auto h0 = torch::tanh(bridge_h(mean)).chunk(options_.decoder_layers, 1);
  auto c0 = bridge_c(mean).chunk(options_.decoder_layers, 1);
  for (int64_t l = 0; l < options_.decoder_layers; ++l) {
    state["h" + std::to_string(l)] = h0[l].contiguous();
    state["c" + std::to_string(l)] = c0[l].contiguous();
  }
  state["feed"] = torch::zeros({src.size(0), options_.embed_dim}, memory.options());
  return state;
}

torch::Tensor RnnAttentionModel::decoder_step(DecodeState& state, const torch::Tensor& prev_embedded) {
  auto x = torch::cat({prev_embedded, state["feed"]}, -1);
  for (int64_t l = 0; l < options_.decoder_layers; ++l) {
    auto& h = state["h" + std::to_string(l)];
    auto& c = state["c" + std::to_string(l)];
    std::tie(h, c) = decoder_cells[static_cast<std::size_t>(l)]->forward(x, std::make_tuple(h, c));
    x = l + 1 < options_.decoder_layers ? dropout(h) : h;
  }
  const auto& memory = state["memory"];
  auto scores = torch::bmm(memory, attn_score(x).unsqueeze(2)).squeeze(2);  // h_t^T W_a s_i
  scores = scores.masked_fill(state["mask"].logical_not(), -std::numeric_limits<float>::infinity());
  auto alpha = torch::softmax(scores, -1);
  state["attention"] = alpha;
  auto context = torch::bmm(alpha.unsqueeze(1), memory).squeeze(1);
  auto u = dropout(torch::tanh(attn_combine(torch::cat({x, context}, -1))));
  state["feed"] = u;
  return u;
}

torch::Tensor RnnAttentionModel::output_logits(const torch::Tensor& u) {
  if (options_.tie_target_embeddings) return torch::matmul(u, tgt_embed->weight.t());
  return output_proj(u);
}

torch::Tensor RnnAttentionModel::forward(const SourceInput& src, const torch::Tensor& tgt_in) {
  DecodeState state = encode(src);
  auto embedded = dropout(tgt_embed(tgt_in));
  std::vector<torch::Tensor> outputs;
  outputs.reserve(static_cast<std::size_t>(tgt_in.size(1)));
  for (int64_t t = 0; t < tgt_in.size(1); ++t) outputs.push_back(decoder_step(state, embedded.select(1, t)));
  // one large output projection for all steps is much faster than one per step
  return torch::log_softmax(output_logits(torch::stack(outputs, 1)), -1);
}

torch::Tensor RnnAttentionModel::step(DecodeState& state, const torch::Tensor& prev_tokens) {
  auto u = decoder_step(state, tgt_embed(prev_tokens));
  return torch::log_softmax(output_logits(u), -1);
}

nlohmann::json RnnAttentionModel::describe() const { return {{"family", "rnn_attention"}, {"options", options_.to_json()}}; }

}  // namespace synmt
