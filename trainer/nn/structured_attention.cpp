#include "trainer/nn/structured_attention.h"

#include <cmath>
#include <limits>

#include "core/error.h"
#include "trainer/nn/matrix_tree.h"
#include "trainer/nn/rnn_encoder.h"

namespace synmt {

HeadSelection parse_head_selection(const std::string& name, const std::string& context) {
  if (name == "tree") return HeadSelection::kTree;
  if (name == "flat") return HeadSelection::kFlat;
  if (name == "hard") return HeadSelection::kHard;
  throw ConfigError(context + ": head selection '" + name + "' (tree | flat | hard)");
}

StructuredAttentionImpl::StructuredAttentionImpl(const StructuredAttentionOptions& o) : options_(o) {
  if (o.dim <= 0 || o.input_dim <= 0) throw ConfigError("structured attention: sizes must be positive");
  query = register_module("query", torch::nn::Linear(torch::nn::LinearOptions(o.input_dim, o.dim).bias(false)));
  key = register_module("key", torch::nn::Linear(torch::nn::LinearOptions(o.input_dim, o.dim).bias(false)));
  value = register_module("value", torch::nn::Linear(torch::nn::LinearOptions(o.input_dim, o.dim).bias(false)));
}

HeadSelectionOutput StructuredAttentionImpl::forward(const torch::Tensor& states, const torch::Tensor& lengths,
                                                     const torch::Tensor& may_head) {
  HeadSelectionOutput out;
  const int64_t n = states.size(1);
  out.phi = torch::bmm(query(states), key(states).transpose(1, 2)) / std::sqrt(static_cast<double>(options_.dim));
  auto real = length_mask(lengths, n, states.device());  // (B, n)
  auto scores = out.phi;
  if (may_head.defined()) {
    // row i scores i as the head of every column j: barred heads keep only their diagonal
    auto off_diagonal = torch::eye(n, torch::TensorOptions().dtype(torch::kBool).device(states.device())).logical_not();
    // a sentence of barred tokens only would have no single-root tree: it keeps every head
    auto allowed = may_head.to(states.device()).logical_and(real);
    allowed = allowed.logical_or(allowed.any(1, /*keepdim=*/true).logical_not());
    auto barred = allowed.logical_not().unsqueeze(2).logical_and(off_diagonal.unsqueeze(0));
    scores = scores.masked_fill(barred, -std::numeric_limits<float>::infinity());
    // the analysis dump (and the trees induced from it) reads the scores the model used: a
    // barred token can head nothing there either
    out.phi = scores;
  }
  if (options_.selection == HeadSelection::kFlat) {
    // each column j: a distribution over the real heads i (pad rows excluded); pad columns zero
    scores = scores.masked_fill(real.logical_not().unsqueeze(2), -std::numeric_limits<float>::infinity());
    out.beta = torch::softmax(scores, 1).masked_fill(real.logical_not().unsqueeze(1), 0.0);
  } else {
    auto phi = options_.float64 ? scores.to(torch::kFloat64) : scores;
    auto beta = matrix_tree_marginals(phi, lengths).to(out.phi.scalar_type());
    if (options_.selection == HeadSelection::kHard) {
      // forward: the argmax head of each column; backward: the marginals' gradient. The zero
      // (beta - beta.detach()) is added last: (hard + beta) - beta rounds, and left 1 - 1 ulp in
      // place of some ones
      auto hard = torch::zeros_like(beta).scatter_(1, beta.argmax(1, /*keepdim=*/true), 1.0);
      hard = hard.masked_fill(real.logical_not().unsqueeze(1), 0.0);
      beta = hard + (beta - beta.detach());
    }
    out.beta = beta;
  }
  out.annotations = torch::bmm(out.beta.transpose(1, 2), value(states));  // m_j = sum_i beta_ij v_i
  return out;
}

}  // namespace synmt
