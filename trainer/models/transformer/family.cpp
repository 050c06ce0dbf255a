// The Transformer family and its presets.
#include "trainer/models/transformer/family.h"

#include "trainer/models/transformer/transformer.h"

namespace synmt {

namespace {
const nlohmann::json kDemo = {{"model_dim", 256}, {"heads", 4}, {"ffn_dim", 1024}, {"encoder_layers", 3}, {"decoder_layers", 3}, {"dropout", 0.1}};
const nlohmann::json kTiny = {{"model_dim", 32}, {"heads", 4}, {"ffn_dim", 64}, {"encoder_layers", 2}, {"decoder_layers", 2}, {"dropout", 0.1}};
// Pascal's baselines and model as syntax modules on a size (paper defaults: layer 1, i.e. 0 here)
nlohmann::json with(nlohmann::json size, const char* key, nlohmann::json modules) {
  size[key] = std::move(modules);
  return size;
}
nlohmann::json sh(const nlohmann::json& size, int dim) {
  return with(size, "embedding_inputs", {{{"kind", "label_embedding"}, {"dim", dim}}});
}
nlohmann::json sisa(const nlohmann::json& size) { return with(size, "score_modifiers", {{{"kind", "sisa"}, {"layer", 0}, {"head", -1}}}); }
nlohmann::json pascal(const nlohmann::json& size) {
  return with(size, "score_modifiers", {{{"kind", "pascal"}, {"layer", 0}, {"heads", nlohmann::json::array()}, {"sigma", 1.0}}});
}
}  // namespace

ModelFamily transformer_family() {
  const nlohmann::json base = nlohmann::json::object();
  return make_family<TransformerModel, TransformerOptions>(
      {
          {"transformer_base", "", base,
           "Vaswani et al. 2017 base = Pascal's baseline: 6+6 layers, d 512, 8 heads, FFN 2048"},
          {"transformer_sh_base", "", sh(base, 10), "Pascal's +S&H: base with a 10-dim dependency-label embedding"},
          {"transformer_sisa_base", "", sisa(base), "Pascal's +SISA: base, encoder layer 1's last head a biaffine parent scorer"},
          {"transformer_pascal_base", "", pascal(base),
           "Pascal: base, encoder layer 1's heads scaled by a Gaussian (sigma^2 1) around the parent (set heads / ignore_prob per data set)"},
          {"transformer_demo", "", kDemo, "the demo: 3+3 layers, d 256, 4 heads, for Multi30k on 2 CPU cores"},
          {"transformer_sh_demo", "", sh(kDemo, 10), "demo-sized +S&H (10 label dims)"},
          {"transformer_sisa_demo", "", sisa(kDemo), "demo-sized +SISA (layer 1, last head)"},
          {"transformer_pascal_demo", "", pascal(kDemo), "demo-sized Pascal (layer 1, all heads, sigma^2 1)"},
          {"transformer_tiny", "", kTiny, "tiny model for tests and the end-to-end slice"},
          {"transformer_sh_tiny", "", sh(kTiny, 4), "tiny +S&H (4 label dims)"},
          {"transformer_sisa_tiny", "", sisa(kTiny), "tiny +SISA"},
          {"transformer_pascal_tiny", "", pascal(kTiny), "tiny Pascal (layer 1, all heads)"},
          {"transformer_syntax_tiny", "",
           {{"model_dim", 32}, {"heads", 4}, {"ffn_dim", 64}, {"encoder_layers", 2}, {"decoder_layers", 2}, {"dropout", 0.1},
            {"score_modifiers", {{{"kind", "parent_bias"}, {"layer", 0}, {"heads", {3}}, {"loss", true}}}},
            {"embedding_inputs", {{{"kind", "label_embedding"}, {"dim", 4}}}}},
           "tiny model with both syntax seams (a learned parent bias with its attention loss, label embeddings): "
           "platform tests and the end-to-end slice"},
      },
      {{"model_dim", 16}, {"heads", 4}, {"ffn_dim", 32}, {"encoder_layers", 2}, {"decoder_layers", 2}});
}

}  // namespace synmt
