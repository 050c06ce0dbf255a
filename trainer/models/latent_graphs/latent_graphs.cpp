#include "trainer/models/latent_graphs/latent_graphs.h"

#include <cmath>

#include "core/config.h"

namespace synmt {

LatentGraphsOptions LatentGraphsOptions::from_json(const nlohmann::json& j) {
  auto o = options_from_json<LatentGraphsOptions>(j, "model.options (latent_graphs)");
  if (o.encoder != "emb" && o.encoder != "cnn" && o.encoder != "rnn")
    throw ConfigError("model.options.encoder: '" + o.encoder + "' (emb | cnn | rnn)");
  if (o.test_graph != "tau" && o.test_graph != "plain" && o.test_graph != "uniform" && o.test_graph != "none")
    throw ConfigError("model.options.test_graph: '" + o.test_graph + "' (tau | plain | uniform | none)");
  if (o.cnn_activation != "relu" && o.cnn_activation != "tanh")
    throw ConfigError("model.options.cnn_activation: '" + o.cnn_activation + "' (relu | tanh)");
  if (o.embed_scale != "sqrt_d" && o.embed_scale != "none")
    throw ConfigError("model.options.embed_scale: '" + o.embed_scale + "' (sqrt_d | none)");
  if (o.encoder == "rnn" && o.embed_dim % 2 != 0) throw ConfigError("model.options.embed_dim: the RNN encoder needs an even size (two directions)");
  if (!(o.tau0 > 0) || !(o.tau_decay > 0)) throw ConfigError("model.options.tau0 and tau_decay must be positive");
  parse_attention_score(o.attention_score, "model.options.attention_score");
  return o;
}

nlohmann::json LatentGraphsOptions::to_json() const { return options_to_json(*this); }

double latent_graph_temperature(const LatentGraphsOptions& o, int64_t update, int64_t updates_per_epoch) {
  const int64_t interval = o.tau_interval > 0 ? o.tau_interval : updates_per_epoch;
  if (interval <= 0) return o.tau0;
  return o.tau0 * std::pow(o.tau_decay, static_cast<double>(update / interval));
}

LatentGraphsModel::LatentGraphsModel(LatentGraphsOptions o) : options_(o) {
  if (o.src_vocab <= 0 || o.tgt_vocab <= 0) throw ConfigError("latent_graphs: vocabulary sizes are not set");
  const int64_t d = o.embed_dim;
  src_embed = register_module("src_embed", torch::nn::Embedding(o.src_vocab, d));
  tgt_embed = register_module("tgt_embed", torch::nn::Embedding(o.tgt_vocab, d));
  if (o.encoder == "rnn") rnn = register_module("rnn", BiLstmEncoder(BiLstmEncoderOptions{d, d / 2, 1, 0.0}));
  if (o.encoder == "cnn") cnn = register_module("cnn", CnnEncoder(CnnEncoderOptions{d, o.cnn_layers, o.cnn_kernel, o.dropout, o.cnn_activation}));
  if (o.graph) graph = register_module("graph", LatentGraph(LatentGraphOptions{d, o.graph_hidden > 0 ? o.graph_hidden : d / 2, o.key_dim}));
  gcn = register_module("gcn", GcnLayer(GcnOptions{d, o.graph, o.edge_gates, o.degree_norm}));
  InputFeedingDecoderOptions dec;
  dec.embed_dim = d;
  dec.hidden = o.decoder_hidden;
  dec.layers = o.decoder_layers;
  dec.memory_dim = d;
  dec.output_dim = d;
  dec.score = parse_attention_score(o.attention_score, "latent_graphs");
  dec.init = DecoderInit::kBridge;
  dec.dropout = o.dropout;
  decoder = register_module("decoder", InputFeedingDecoder(dec));
  if (!o.tie_target_embeddings) output_proj = register_module("output_proj", torch::nn::Linear(d, o.tgt_vocab));
  dropout = register_module("dropout", torch::nn::Dropout(o.dropout));
  target_ = InputFeedingTarget{tgt_embed, decoder, output_proj, dropout};
  {
    torch::NoGradGuard no_grad;
    for (auto& p : parameters()) p.uniform_(-o.init_range, o.init_range);
  }
  tau = register_buffer("tau", torch::full({}, o.tau0, torch::kFloat64));
}

void LatentGraphsModel::set_training_context(const TrainingContext& c) {
  tau.fill_(latent_graph_temperature(options_, c.update, c.updates_per_epoch));
}

std::map<std::string, std::string> LatentGraphsModel::analysis_axes() const {
  std::map<std::string, std::string> axes{{"source_attention", "tgt src"}};
  if (options_.graph) axes["graph"] = "src src";
  return axes;
}

// s_1^m of §3: "word embeddings [plus] position encodings" (Emb); "convolutional layers as also
// used by Gehring et al. (2017), and again add position encodings" (CNN): the positions go into the
// convolutions' input, as in Gehring et al.'s encoder, where they are added to the word embeddings;
// "a bi-directional RNN" (RNN), which needs none.
torch::Tensor LatentGraphsModel::source_states(const SourceInput& input, const torch::Tensor& x) {
  if (options_.encoder == "rnn") return rnn(x, input.lengths);
  // Vaswani et al.'s position encodings come with their embeddings scaled by sqrt(d) (§3.4):
  // unscaled, embeddings initialised in +-init_range (0.1) would carry ~1/12 of the sinusoids'
  // unit amplitude at d = 256, the states then mostly position (embed_scale: none, the ablation)
  const double scale = options_.embed_scale == "sqrt_d" ? std::sqrt(static_cast<double>(x.size(2))) : 1.0;
  auto positioned = add_sinusoidal_positions(scale == 1.0 ? x : x * scale, input.lengths);
  if (options_.encoder == "cnn") return cnn(positioned, input.lengths);
  return positioned;
}

torch::Tensor LatentGraphsModel::source_states(const SourceInput& input) {
  return source_states(input, dropout(src_embed(input.tokens)));
}

DecodeState LatentGraphsModel::encode_with(const SourceInput& input, ModelOutput* analysis) {
  auto x = dropout(src_embed(input.tokens));
  torch::Tensor states = source_states(input, x);
  torch::Tensor a;
  if (options_.graph) {
    const std::string& probe = options_.test_graph;
    if (!is_training() && probe == "none") {
      a = torch::zeros({x.size(0), x.size(1), x.size(1)}, states.options());
    } else {
      auto lambda = graph(x, input.lengths);
      // uniform: the same admissible heads (-inf kept on the diagonal and off the sentence), equal scores
      if (!is_training() && probe == "uniform") lambda = torch::where(torch::isinf(lambda), lambda, torch::zeros_like(lambda));
      const double t = !is_training() && (probe == "plain" || probe == "uniform") ? 1.0 : temperature();
      a = concrete_graph(lambda, t, /*noise=*/is_training());
    }
    if (analysis) analysis->analysis["graph"] = a;
  }
  auto memory = gcn(states, a);
  auto allowed = length_mask(input.lengths, input.tokens.size(1), input.tokens.device());
  memory = memory * allowed.unsqueeze(2).to(memory.dtype());  // padding stays zero
  DecodeState state;
  decoder->start(state, dropout(memory), allowed, memory, input.lengths);
  return state;
}

DecodeState LatentGraphsModel::encode(const SourceInput& input) { return encode_with(input, nullptr); }

ModelOutput LatentGraphsModel::forward(const SourceInput& src, const torch::Tensor& tgt_in, const ForwardRequest& request) {
  ModelOutput out;
  DecodeState state = encode_with(src, request.analysis ? &out : nullptr);
  target_.teacher_forced(state, tgt_in, request, out);
  return out;
}

torch::Tensor LatentGraphsModel::step(DecodeState& state, const torch::Tensor& prev_tokens) { return target_.step(state, prev_tokens); }

nlohmann::json LatentGraphsModel::describe() const { return {{"family", kFamily}, {"options", options_.to_json()}}; }

}  // namespace synmt
