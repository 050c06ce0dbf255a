#include "trainer/nn/gcn.h"

#include "core/error.h"

namespace synmt {

GcnLayerImpl::GcnLayerImpl(const GcnOptions& o) : options_(o) {
  if (o.dim <= 0) throw ConfigError("gcn: dim must be positive");
  self_loop = register_module("self_loop", torch::nn::Linear(o.dim, o.dim));  // W_self and b
  if (!o.graph) return;
  head = register_module("head", torch::nn::Linear(torch::nn::LinearOptions(o.dim, o.dim).bias(false)));
  dep = register_module("dep", torch::nn::Linear(torch::nn::LinearOptions(o.dim, o.dim).bias(false)));
  if (o.edge_gates) {
    head_gate = register_module("head_gate", torch::nn::Linear(o.dim, 1));
    dep_gate = register_module("dep_gate", torch::nn::Linear(o.dim, 1));
  }
}

torch::Tensor GcnLayerImpl::forward(const torch::Tensor& s, const torch::Tensor& a) {
  auto pre = self_loop(s);
  if (options_.graph && a.defined()) {
    auto from_heads = head(s), from_deps = dep(s);  // W_head s_k, W_dep s_k
    if (options_.edge_gates) {
      from_heads = from_heads * torch::sigmoid(head_gate(s));
      from_deps = from_deps * torch::sigmoid(dep_gate(s));
    }
    auto messages = torch::bmm(a, from_heads) + torch::bmm(a.transpose(1, 2), from_deps);
    if (options_.degree_norm) messages = messages / (1.0 + a.sum(2, true) + a.sum(1).unsqueeze(2));
    pre = pre + messages;
  }
  return s + torch::relu(pre);
}

}  // namespace synmt
