// The registered model families, one line each: the only file below models/ that knows every
// family (each family's directory defines its ModelFamily and includes registry.h; registry.cpp
// resolves names over this list without including any family, so the two never include each other).
#include "trainer/models/latent_graphs/family.h"
#include "trainer/models/lgp/family.h"
#include "trainer/models/registry.h"
#include "trainer/models/rnn_attention/family.h"
#include "trainer/models/sa_nmt/family.h"
#include "trainer/models/transformer/family.h"

namespace synmt {

const std::vector<ModelFamily>& model_families() {
  static const std::vector<ModelFamily> families = {
      rnn_attention_family(),
      transformer_family(),
      sa_nmt_family(),
      latent_graphs_family(),
      lgp_family(),
  };
  return families;
}

}  // namespace synmt
