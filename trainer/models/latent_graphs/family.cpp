// The latent-graph family: Table 2's six rows of Bastings et al. 2018 as presets (De-En sizes:
// 256 units; Ja-En runs set embed_dim 512 in their experiment's model options).
#include "trainer/models/latent_graphs/family.h"

#include <string>

#include "trainer/models/latent_graphs/latent_graphs.h"

namespace synmt {

ModelFamily latent_graphs_family() {
  // The CNN rows use Gehring et al.'s tanh encoder, which the paper cites (LatentGraphsOptions::cnn_activation)
  auto row = [](const char* encoder, bool graph) {
    nlohmann::json r{{"encoder", encoder}, {"graph", graph}};
    if (std::string(encoder) == "cnn") r["cnn_activation"] = "tanh";
    return r;
  };
  return make_family<LatentGraphsModel, LatentGraphsOptions>(
      {
          {"lg_baseline_emb", "", row("emb", false), "baseline Emb: embeddings + positions, dense ReLU layer (no graph)"},
          {"lg_baseline_cnn", "", row("cnn", false), "baseline CNN: 2 width-3 tanh convolutions (Gehring et al.), dense ReLU layer"},
          {"lg_baseline_rnn", "", row("rnn", false), "baseline RNN: a BiLSTM, dense ReLU layer"},
          {"lg_graph_emb", "", row("emb", true), "latent graph Emb: Concrete-sampled graph + GCN over embeddings + positions"},
          {"lg_graph_cnn", "", row("cnn", true), "latent graph CNN: Concrete-sampled graph + GCN over the CNN"},
          {"lg_graph_rnn", "", row("rnn", true), "latent graph RNN: Concrete-sampled graph + GCN over the BiLSTM"},
      },
      {{"embed_dim", 16}, {"key_dim", 8}, {"decoder_hidden", 16}});
}

}  // namespace synmt
