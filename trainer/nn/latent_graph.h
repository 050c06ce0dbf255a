#pragma once
// Bastings et al. (2018)'s latent graph: a BiLSTM over the source embeddings gives queries and keys
// (d_K), lambda_ik = q_i^T k_k / sqrt(d_K) scores k as the head of i (-inf on the diagonal and on
// padding), and the soft graph a_i = softmax((lambda_i + g_i) / tau) is a Concrete (Gumbel-softmax)
// relaxation of one head per token, with Gumbel noise g in training. Noise comes from the default
// generator, whose state the trainer checkpoints, so that a resumed run draws the same samples.
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/types.h>

#include "trainer/nn/rnn_encoder.h"

namespace synmt {

struct LatentGraphOptions {
  int64_t input_dim = 0;
  int64_t hidden = 0;    // BiLSTM, per direction
  int64_t key_dim = 256;  // d_K
};

class LatentGraphImpl : public torch::nn::Module {
 public:
  explicit LatentGraphImpl(const LatentGraphOptions& options);
  // lambda (B, S, S): row i scores every k != i as i's head; -inf on the diagonal and off the sentence
  torch::Tensor forward(const torch::Tensor& embedded, const torch::Tensor& lengths);

 private:
  LatentGraphOptions options_;
  BiLstmEncoder lstm{nullptr};
  torch::nn::Linear query{nullptr}, key{nullptr};
};
TORCH_MODULE(LatentGraph);

// a = softmax((lambda + g) / tau) along the last axis, g standard Gumbel noise when `noise`.
// Rows without an admissible head (a one-token sentence, padding) are exactly 0, never NaN.
torch::Tensor concrete_graph(const torch::Tensor& lambda, double tau, bool noise);

}  // namespace synmt
