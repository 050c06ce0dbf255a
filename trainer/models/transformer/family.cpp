// The Transformer family and its presets.
#include "trainer/models/transformer/family.h"

#include "trainer/models/transformer/transformer.h"

namespace synmt {

ModelFamily transformer_family() {
  return make_family<TransformerModel, TransformerOptions>(
      "transformer",
      {
          {"transformer_base", "", nlohmann::json::object(),
           "Vaswani et al. 2017 base = Pascal's baseline: 6+6 layers, d 512, 8 heads, FFN 2048"},
          {"transformer_demo", "",
           {{"model_dim", 256}, {"heads", 4}, {"ffn_dim", 1024}, {"encoder_layers", 3}, {"decoder_layers", 3}, {"dropout", 0.1}},
           "the demo: 3+3 layers, d 256, 4 heads, for Multi30k on 2 CPU cores"},
          {"transformer_tiny", "",
           {{"model_dim", 32}, {"heads", 4}, {"ffn_dim", 64}, {"encoder_layers", 2}, {"decoder_layers", 2}, {"dropout", 0.1}},
           "tiny model for tests and the end-to-end slice"},
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
