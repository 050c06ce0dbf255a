#pragma once
// One unlabeled graph-convolution layer over a soft graph (Marcheggiani & Titov 2017, as Bastings
// et al. 2018 use it), residual:
//   s'_i = s_i + ReLU(W_self s_i + sum_k a_ik W_head s_k + sum_k a_ki W_dep s_k + b)
// a_ik: the weight of k as i's head. Optional edge gates (a scalar sigma(w . s_k + c) per edge
// direction) and degree normalisation (the sums divided by 1 + sum_k a_ik + sum_k a_ki); both off by
// default: Bastings et al. 2018 describe neither (Marcheggiani & Titov's GCN gates its edges, and
// gates the self-loop too, which the option here does not). Without a graph the layer is the baselines' dense ReLU layer with the same
// residual: exactly the GCN with self-loops only (a = 0).
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/types.h>

namespace synmt {

struct GcnOptions {
  int64_t dim = 0;
  bool graph = true;       // false: the dense baseline layer (no W_head, W_dep)
  bool edge_gates = false;
  bool degree_norm = false;
};

class GcnLayerImpl : public torch::nn::Module {
 public:
  explicit GcnLayerImpl(const GcnOptions& options);
  // states (B, S, D); graph (B, S, S) or undefined (then only the self term)
  torch::Tensor forward(const torch::Tensor& states, const torch::Tensor& graph = {});

 private:
  GcnOptions options_;
  torch::nn::Linear self_loop{nullptr}, head{nullptr}, dep{nullptr}, head_gate{nullptr}, dep_gate{nullptr};
};
TORCH_MODULE(GcnLayer);

}  // namespace synmt
