#pragma once
// Source encoders over embedded tokens (B, S, E) that the RNN-decoder families share: a stack of
// BiLSTMs (s_i = [fwd_i; bwd_i], padding excluded by packing), a CNN (Bastings et al.'s: layers of
// width-k convolutions with residual connections, tanh as Gehring et al.'s encoder or ReLU) and the identity "Emb" encoder with sinusoidal
// positions. Each returns (B, S, output_dim()) with zeros at padded positions.
#include <torch/nn/module.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/rnn.h>
#include <torch/types.h>

#include <string>
#include <vector>

namespace synmt {

struct BiLstmEncoderOptions {
  int64_t input_dim = 0, hidden = 0;  // hidden per direction
  int64_t layers = 1;
  double dropout = 0.0;  // between layers
};

class BiLstmEncoderImpl : public torch::nn::Module {
 public:
  explicit BiLstmEncoderImpl(const BiLstmEncoderOptions& options);
  torch::Tensor forward(const torch::Tensor& embedded, const torch::Tensor& lengths);
  int64_t output_dim() const { return 2 * options_.hidden; }

 private:
  BiLstmEncoderOptions options_;
  torch::nn::LSTM lstm{nullptr};
};
TORCH_MODULE(BiLstmEncoder);

struct CnnEncoderOptions {
  int64_t dim = 0;     // input = output size
  int64_t layers = 2;
  int64_t kernel = 3;  // odd: the output at i sees i +- kernel/2 per layer
  double dropout = 0.0;
  // relu: x_{l+1} = x_l + ReLU(conv_l(x_l)) (unbounded, each layer adds a non-negative term);
  // tanh: x_1 = tanh(conv_0(x_0)), x_{l+1} = tanh(x_l + conv_l(x_l)): Gehring et al.'s (ACL 2017)
  // convolutional encoder as OpenNMT's Lua and TensorFlow implementations of it build it (the
  // residual from the second layer on, the non-linearity after the sum), states in (-1, 1)
  std::string activation = "relu";
};

// Residual convolutions (activation above), padding positions zeroed before every layer so that a
// sentence's states do not depend on its batch.
class CnnEncoderImpl : public torch::nn::Module {
 public:
  explicit CnnEncoderImpl(const CnnEncoderOptions& options);
  torch::Tensor forward(const torch::Tensor& embedded, const torch::Tensor& lengths);
  int64_t output_dim() const { return options_.dim; }

 private:
  CnnEncoderOptions options_;
  std::vector<torch::nn::Conv1d> convs;
  torch::nn::Dropout dropout{nullptr};
};
TORCH_MODULE(CnnEncoder);

// (B, S) true at real positions.
torch::Tensor length_mask(const torch::Tensor& lengths, int64_t max_len, const torch::Device& device);

// Embeddings plus sinusoidal positions (Bastings et al.'s "Emb" encoder): no parameters.
torch::Tensor add_sinusoidal_positions(const torch::Tensor& embedded, const torch::Tensor& lengths);

}  // namespace synmt
