// The RNN attention family and its presets.
#include "trainer/models/rnn_attention/family.h"

#include "trainer/models/rnn_attention/rnn_attention.h"

namespace synmt {

ModelFamily rnn_attention_family() {
  return make_family<RnnAttentionModel, RnnAttentionOptions>(
      {
          {"rnn_sa_nmt_base", "",
           {{"embed_dim", 1024}, {"encoder_hidden", 512}, {"decoder_hidden", 1024}, {"encoder_layers", 2},
            {"decoder_layers", 2}, {"dropout", 0.3}, {"init_range", 0.04}},
           "Tran & Bisk 2018 NMT row: 1024-dim embeddings and states, dropout 0.3, U(-0.04, 0.04)"},
          {"rnn_demo", "",
           {{"embed_dim", 256}, {"encoder_hidden", 128}, {"decoder_hidden", 256}, {"encoder_layers", 2},
            {"decoder_layers", 2}, {"dropout", 0.3}, {"init_range", 0.1}},
           "the demo: the SA-NMT baseline sized for 2 CPU cores and Multi30k"},
          {"rnn_tiny", "",
           {{"embed_dim", 32}, {"encoder_hidden", 32}, {"decoder_hidden", 32}, {"encoder_layers", 2},
            {"decoder_layers", 2}, {"dropout", 0.1}, {"init_range", 0.1}},
           "tiny model for tests and the end-to-end slice"},
      },
      {{"embed_dim", 16}, {"encoder_hidden", 8}, {"decoder_hidden", 16}});
}

}  // namespace synmt
