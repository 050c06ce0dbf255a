#pragma once
// Pascal (Bugliarello & Okazaki 2020): in one encoder layer, P chosen heads have their scaled
// scores S = QK^T/sqrt(d_k) multiplied element-wise, before the softmax, by a Gaussian around each
// token's parent, N_ij = exp(-(j - p_i)^2 / 2 sigma^2) / sqrt(2 pi sigma^2), p_i the middle position
// of the parent word's sub-words (feature parent_position; the root's parent is itself).
// Parameter-free. Parent ignoring (training only) replaces a row N_i by ones with probability q.
//
// Differences from the released code (fairseq fork), deliberate: heads are chosen in the
// (batch, head) layout, so every sentence is scaled by its own parents (the released code scales
// rows attn[-P*B:] of a batch-major layout, which mixes sentences when P < H), and parents are
// padded on the same side as tokens.
#include <string>
#include <vector>

#include <torch/types.h>

#include "trainer/models/transformer/syntax_modules.h"

namespace synmt {

struct PascalOptions {
  std::string kind = "pascal";
  int64_t layer = 0;             // 0-based: the paper's "layer 1" is 0
  std::vector<int64_t> heads;    // the P Pascal heads; empty: all heads
  double sigma = 1.0;            // read as sigma_reading says
  std::string sigma_reading = "variance";  // variance: sigma is sigma^2 (the paper); std: sigma is sigma (the released code)
  bool parent_only = false;      // N_ij = [|j - p_i| < 1] instead of the Gaussian (Table 7's "parent-only")
  double ignore_prob = 0.0;      // q: parent ignoring, training only
  bool share_ignore_across_heads = false;  // one draw per (sentence, row) for all P heads; default per head, as the released code
  template <class Self, class Visit>
  static void fields(Self& o, Visit&& v) {
    v("kind", o.kind);
    v("layer", o.layer);
    v("heads", o.heads);
    v("sigma", o.sigma);
    v("sigma_reading", o.sigma_reading);
    v("parent_only", o.parent_only);
    v("ignore_prob", o.ignore_prob);
    v("share_ignore_across_heads", o.share_ignore_across_heads);
  }
};

// N (B, S, S) for parent positions (B, S): the scaling matrix of one sentence per batch row.
torch::Tensor pascal_scaling(const torch::Tensor& parent_position, int64_t keys, const PascalOptions& options);

class PascalHeadsImpl : public ScoreModifierImpl {
 public:
  PascalHeadsImpl(PascalOptions options, const SyntaxModuleSizes& sizes);
  torch::Tensor modify(const torch::Tensor& scores, const torch::Tensor& query_input, const SeamContext& context) override;
  std::set<std::string> required_features() const override { return {kSourceFeatureParentPosition}; }
  int64_t layer() const override { return options_.layer; }

 private:
  PascalOptions options_;
  std::vector<int64_t> heads_;
};

}  // namespace synmt
