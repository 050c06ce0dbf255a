// The SA-NMT family: Table 2's seven rows of Tran & Bisk 2018 as presets (the paper gives 1024-dim
// embeddings, 2 LSTM layers, dropout 0.3, U(-0.04, 0.04); the 1024-dim decoder and 2x512 BiLSTM
// are our reading, its hidden sizes unstated); smaller runs
// override the sizes in their experiment's model options.
#include "trainer/models/sa_nmt/family.h"

#include "core/log.h"
#include "preprocess/vocab.h"
#include "trainer/models/sa_nmt/sa_nmt.h"

namespace synmt {

ModelFamily sa_nmt_family() {
  auto row = [](const char* syntax, bool shared, bool one_set) {
    return nlohmann::json{{"syntax", syntax}, {"shared_attention", shared}, {"one_set", one_set}};
  };
  auto family = make_family<SaNmtModel, SaNmtOptions>(
      {
          {"sa_nmt_nmt", "", row("none", true, false), "Table 2 NMT: the RNN attention baseline inside the family"},
          {"sa_nmt_fa_shared", "", row("flat", true, false), "FA-NMT, shared attention: softmax head selection, gate"},
          {"sa_nmt_fa_not_shared", "", row("flat", false, false), "FA-NMT, not shared: its own attention over the annotations"},
          {"sa_nmt_1set", "", row("tree", true, true), "SA-NMT-1set: s_i + sigma(W_g s_i) * m_i, one attention"},
          {"sa_nmt_hard", "", row("hard", true, false), "SA-NMT-hard: one-hot heads forward, straight-through backward"},
          {"sa_nmt_shared", "", row("tree", true, false), "SA-NMT, shared attention: matrix-tree marginals, gate"},
          {"sa_nmt_not_shared", "", row("tree", false, false), "SA-NMT, not shared: its own attention over the annotations"},
      },
      {{"embed_dim", 16}, {"encoder_hidden", 8}, {"decoder_hidden", 16}});
  // mask_punct_heads: the ids of the source vocabulary's punctuation tokens
  family.complete_from_data = [](nlohmann::json& options, const Vocab& src_vocab, const Vocab& tgt_vocab) {
    fill_vocabulary_sizes(options, src_vocab, tgt_vocab);
    if (!options.value("mask_punct_heads", false)) return;
    const auto ids = src_vocab.punctuation_ids();
    options["punct_ids"] = std::vector<int64_t>(ids.begin(), ids.end());
    log_info("mask_punct_heads: " + std::to_string(ids.size()) + " punctuation tokens in the source vocabulary");
  };
  return family;
}

}  // namespace synmt
