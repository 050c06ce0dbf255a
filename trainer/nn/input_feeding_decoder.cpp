#include "trainer/nn/input_feeding_decoder.h"

#include "core/error.h"

namespace synmt {

DecoderInit parse_decoder_init(const std::string& name, const std::string& context) {
  if (name == "bridge") return DecoderInit::kBridge;
  if (name == "position") return DecoderInit::kPosition;
  if (name == "zero") return DecoderInit::kZero;
  throw ConfigError(context + ": decoder init '" + name + "' (bridge | position | zero)");
}

InputFeedingDecoderImpl::InputFeedingDecoderImpl(const InputFeedingDecoderOptions& o) : options_(o) {
  if (o.layers < 1) throw ConfigError("decoder: layers must be >= 1");
  // Registration order fixes the order of parameters() and with it the seeded initialisation:
  // bridge, cells, content attention, extra attentions and gates, combination.
  if (o.init == DecoderInit::kBridge) {
    bridge_h = register_module("bridge_h", torch::nn::Linear(o.memory_dim, o.layers * o.hidden));
    bridge_c = register_module("bridge_c", torch::nn::Linear(o.memory_dim, o.layers * o.hidden));
  } else if (o.init == DecoderInit::kPosition && o.memory_dim != o.hidden) {
    throw ConfigError("decoder: init = position needs memory_dim == hidden (" + std::to_string(o.memory_dim) + " vs " +
                      std::to_string(o.hidden) + ")");
  }
  for (int64_t l = 0; l < o.layers; ++l) {
    const int64_t in = l == 0 ? o.embed_dim + o.output_dim : o.hidden;  // input feeding: [E(y); u]
    cells.push_back(register_module("cell_" + std::to_string(l), torch::nn::LSTMCell(in, o.hidden)));
  }
  attention = register_module("attention", LuongAttention(LuongAttentionOptions{o.hidden, o.memory_dim, o.score}));
  int64_t combined = o.hidden + o.memory_dim;
  for (const auto& m : o.extra_memories) {
    if (m.name.empty() || m.name.find('/') != std::string::npos) throw ConfigError("decoder: bad extra memory name '" + m.name + "'");
    extra_attention.push_back(m.shared_attention ? LuongAttention(nullptr)
                                                 : register_module("attention_" + m.name,
                                                                   LuongAttention(LuongAttentionOptions{o.hidden, m.dim, m.score})));
    gates.push_back(m.gate ? register_module("gate_" + m.name, torch::nn::Linear(o.hidden, m.dim)) : torch::nn::Linear(nullptr));
    combined += m.dim;
  }
  combine = register_module("combine", torch::nn::Linear(torch::nn::LinearOptions(combined, o.output_dim).bias(false)));
  dropout = register_module("dropout", torch::nn::Dropout(o.dropout));
}

void InputFeedingDecoderImpl::start(DecodeState& state, const torch::Tensor& memory, const torch::Tensor& allowed,
                                    const torch::Tensor& init_memory, const torch::Tensor& lengths,
                                    const torch::Tensor& init_position, const torch::Tensor& init_cell) {
  const int64_t B = memory.size(0), L = options_.layers;
  state["memory"] = memory;
  state["mask"] = allowed;
  state.per_sentence.insert({"memory", "mask"});
  std::vector<torch::Tensor> h0, c0;
  if (options_.init == DecoderInit::kBridge) {
    auto mean = init_memory.sum(1) / lengths.to(init_memory.device()).to(init_memory.dtype()).unsqueeze(1);
    h0 = torch::tanh(bridge_h(mean)).chunk(L, 1);
    c0 = bridge_c(mean).chunk(L, 1);
  } else {
    auto zero = torch::zeros({B, options_.hidden}, memory.options());
    auto first = zero, first_cell = zero;
    if (options_.init == DecoderInit::kPosition) {
      if (!init_position.defined()) throw ConfigError("decoder: init = position without a position");
      auto index = init_position.to(init_memory.device()).view({B, 1, 1}).expand({B, 1, init_memory.size(2)});
      first = init_memory.gather(1, index).squeeze(1);
      if (init_cell.defined()) {
        if (init_cell.sizes() != first.sizes()) throw ConfigError("decoder: init_cell must be (batch, hidden)");
        first_cell = init_cell;
      }
    }
    for (int64_t l = 0; l < L; ++l) {
      h0.push_back(l == 0 ? first : zero);
      c0.push_back(l == 0 ? first_cell : zero);
    }
  }
  for (int64_t l = 0; l < L; ++l) {
    state["h" + std::to_string(l)] = h0[static_cast<std::size_t>(l)].contiguous();
    state["c" + std::to_string(l)] = c0[static_cast<std::size_t>(l)].contiguous();
  }
  state["feed"] = torch::zeros({B, options_.output_dim}, memory.options());
}

void InputFeedingDecoderImpl::add_memory(DecodeState& state, const std::string& name, const torch::Tensor& memory,
                                         const torch::Tensor& allowed) {
  state["memory/" + name] = memory;
  state["mask/" + name] = allowed;
  state.per_sentence.insert({"memory/" + name, "mask/" + name});
}

torch::Tensor InputFeedingDecoderImpl::step(DecodeState& state, const torch::Tensor& prev_embedded) {
  auto x = torch::cat({prev_embedded, state["feed"]}, -1);
  for (int64_t l = 0; l < options_.layers; ++l) {
    auto& h = state["h" + std::to_string(l)];
    auto& c = state["c" + std::to_string(l)];
    std::tie(h, c) = cells[static_cast<std::size_t>(l)]->forward(x, std::make_tuple(h, c));
    x = l + 1 < options_.layers ? dropout(h) : h;
  }
  const auto& memory = state["memory"];
  auto alpha = attention->weights(x, memory, state["mask"]);
  state["attention"] = alpha;
  std::vector<torch::Tensor> parts{x, attention_context(alpha, memory)};
  for (std::size_t m = 0; m < options_.extra_memories.size(); ++m) {
    const auto& spec = options_.extra_memories[m];
    const auto& extra = state["memory/" + spec.name];
    torch::Tensor weights = alpha;
    if (!spec.shared_attention) {
      weights = extra_attention[m]->weights(x, extra, state["mask/" + spec.name]);
      state["attention/" + spec.name] = weights;
    }
    auto d = attention_context(weights, extra);
    if (spec.gate) {
      auto g = torch::sigmoid(gates[m](x));
      state["gate/" + spec.name] = g;
      d = g * d;
    }
    parts.push_back(d);
  }
  auto u = dropout(torch::tanh(combine(torch::cat(parts, -1))));
  state["feed"] = u;
  return u;
}

torch::Tensor InputFeedingDecoderImpl::teacher_forced(DecodeState& state, const torch::Tensor& embedded,
                                                     std::map<std::string, torch::Tensor>* record) {
  std::vector<torch::Tensor> outputs;
  std::map<std::string, std::vector<torch::Tensor>> steps;
  outputs.reserve(static_cast<std::size_t>(embedded.size(1)));
  for (int64_t t = 0; t < embedded.size(1); ++t) {
    outputs.push_back(step(state, embedded.select(1, t)));
    if (record)
      for (const auto& [name, ignored] : *record) steps[name].push_back(state[name]);
  }
  if (record)
    for (auto& [name, stacked] : *record) stacked = torch::stack(steps[name], 1);
  return torch::stack(outputs, 1);
}

}  // namespace synmt
