#include "trainer/nn/rnn_encoder.h"

#include <torch/nn/utils/rnn.h>

#include "core/error.h"
#include "trainer/nn/transformer_layers.h"

namespace synmt {

torch::Tensor length_mask(const torch::Tensor& lengths, int64_t max_len, const torch::Device& device) {
  return torch::arange(max_len, torch::TensorOptions().dtype(torch::kInt64).device(device)).unsqueeze(0) <
         lengths.to(device).unsqueeze(1);
}

BiLstmEncoderImpl::BiLstmEncoderImpl(const BiLstmEncoderOptions& o) : options_(o) {
  lstm = register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(o.input_dim, o.hidden)
                                                     .num_layers(o.layers)
                                                     .bidirectional(true)
                                                     .batch_first(true)
                                                     .dropout(o.layers > 1 ? o.dropout : 0.0)));
}

torch::Tensor BiLstmEncoderImpl::forward(const torch::Tensor& embedded, const torch::Tensor& lengths) {
  const int64_t S = embedded.size(1);
  auto packed = torch::nn::utils::rnn::pack_padded_sequence(embedded, lengths.to(torch::kCPU), /*batch_first=*/true,
                                                            /*enforce_sorted=*/false);
  auto out = std::get<0>(lstm->forward_with_packed_input(packed));
  return std::get<0>(torch::nn::utils::rnn::pad_packed_sequence(out, /*batch_first=*/true, 0.0, S));
}

CnnEncoderImpl::CnnEncoderImpl(const CnnEncoderOptions& o) : options_(o) {
  if (o.kernel < 1 || o.kernel % 2 == 0) throw ConfigError("cnn encoder: kernel must be odd, got " + std::to_string(o.kernel));
  if (o.activation != "relu" && o.activation != "tanh") throw ConfigError("cnn encoder: activation '" + o.activation + "' (relu | tanh)");
  for (int64_t l = 0; l < o.layers; ++l)
    convs.push_back(register_module("conv_" + std::to_string(l),
                                    torch::nn::Conv1d(torch::nn::Conv1dOptions(o.dim, o.dim, o.kernel).padding(o.kernel / 2))));
  dropout = register_module("dropout", torch::nn::Dropout(o.dropout));
}

torch::Tensor CnnEncoderImpl::forward(const torch::Tensor& embedded, const torch::Tensor& lengths) {
  auto keep = length_mask(lengths, embedded.size(1), embedded.device()).unsqueeze(2).to(embedded.dtype());
  auto x = embedded * keep;
  for (size_t l = 0; l < convs.size(); ++l) {
    auto y = convs[l](x.transpose(1, 2)).transpose(1, 2);
    if (options_.activation == "tanh")
      x = torch::tanh(l == 0 ? dropout(y) : x + dropout(y)) * keep;
    else
      x = (x + dropout(torch::relu(y))) * keep;
  }
  return x;
}

torch::Tensor add_sinusoidal_positions(const torch::Tensor& embedded, const torch::Tensor& lengths) {
  auto pos = sinusoidal_positions(embedded.size(1), embedded.size(2)).to(embedded.device(), embedded.scalar_type());
  auto keep = length_mask(lengths, embedded.size(1), embedded.device()).unsqueeze(2).to(embedded.dtype());
  return (embedded + pos.unsqueeze(0)) * keep;
}

}  // namespace synmt
