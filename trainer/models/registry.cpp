#include "trainer/models/registry.h"

#include "core/config.h"
#include "trainer/models/rnn_attention/rnn_attention.h"
#include "trainer/models/transformer/transformer.h"

namespace synmt {

const std::vector<ModelFamily>& model_families() {
  static const std::vector<ModelFamily> families = {
      {"rnn_attention",
       [](const nlohmann::json& o) { return std::make_shared<RnnAttentionModel>(RnnAttentionOptions::from_json(o)); },
       [](const nlohmann::json& o) { return RnnAttentionOptions::from_json(o).to_json(); }},
      {"transformer",
       [](const nlohmann::json& o) { return std::make_shared<TransformerModel>(TransformerOptions::from_json(o)); },
       [](const nlohmann::json& o) { return TransformerOptions::from_json(o).to_json(); }},
  };
  return families;
}

const std::vector<Architecture>& architectures() {
  static const std::vector<Architecture> archs = {
      // Tran & Bisk 2018 "NMT" row: 1024-dim embeddings and states, dropout 0.3, U(-0.04, 0.04).
      {"rnn_sa_nmt_base", "rnn_attention",
       {{"embed_dim", 1024}, {"encoder_hidden", 512}, {"decoder_hidden", 1024}, {"encoder_layers", 2},
        {"decoder_layers", 2}, {"dropout", 0.3}, {"init_range", 0.04}}},
      // The demo: the same architecture sized for 2 CPU cores and Multi30k (docs/benchmarks.md).
      {"rnn_demo", "rnn_attention",
       {{"embed_dim", 256}, {"encoder_hidden", 128}, {"decoder_hidden", 256}, {"encoder_layers", 2},
        {"decoder_layers", 2}, {"dropout", 0.3}, {"init_range", 0.1}}},
      // Tiny model for tests and the end-to-end slice.
      {"rnn_tiny", "rnn_attention",
       {{"embed_dim", 32}, {"encoder_hidden", 32}, {"decoder_hidden", 32}, {"encoder_layers", 2},
        {"decoder_layers", 2}, {"dropout", 0.1}, {"init_range", 0.1}}},
      // Vaswani et al. 2017 base = Pascal's baseline: the family defaults (6+6, d 512, 8 heads, FFN 2048).
      {"transformer_base", "transformer", nlohmann::json::object()},
      // The demo: a small Transformer for Multi30k on 2 CPU cores (3+3 layers, d 256, 4 heads).
      {"transformer_demo", "transformer",
       {{"model_dim", 256}, {"heads", 4}, {"ffn_dim", 1024}, {"encoder_layers", 3}, {"decoder_layers", 3}, {"dropout", 0.1}}},
      // Tiny model for tests and the end-to-end slice.
      {"transformer_tiny", "transformer",
       {{"model_dim", 32}, {"heads", 4}, {"ffn_dim", 64}, {"encoder_layers", 2}, {"decoder_layers", 2}, {"dropout", 0.1}}},
  };
  return archs;
}

nlohmann::json resolve_model_config(const nlohmann::json& section) {
  std::string arch, family;
  nlohmann::json options = nlohmann::json::object();
  JsonFields f(section, "model");
  f.optional("arch", arch).optional("family", family).optional("options", options);
  f.finish();
  nlohmann::json resolved_options = nlohmann::json::object();
  if (!arch.empty()) {
    auto it = std::find_if(architectures().begin(), architectures().end(), [&](const Architecture& a) { return a.name == arch; });
    if (it == architectures().end()) throw ConfigError("model.arch: unknown architecture '" + arch + "'");
    if (!family.empty() && family != it->family)
      throw ConfigError("model.family '" + family + "' contradicts architecture '" + arch + "'");
    family = it->family;
    resolved_options = it->defaults;
  }
  if (family.empty()) throw ConfigError("model: set 'arch' or 'family'");
  merge_json(resolved_options, options);
  for (const auto& f : model_families())
    if (f.name == family) return {{"family", family}, {"options", f.complete(resolved_options)}};
  throw ConfigError("model.family: unknown family '" + family + "'");
}

std::shared_ptr<Seq2SeqModel> create_model(const nlohmann::json& resolved) {
  const std::string family = resolved.at("family").get<std::string>();
  for (const auto& f : model_families())
    if (f.name == family) return f.create(resolved.at("options"));
  throw ConfigError("unknown model family '" + family + "'");
}

}  // namespace synmt
