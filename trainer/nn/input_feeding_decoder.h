#pragma once
// The input-feeding LSTM decoder of Luong et al. (2015) that the RNN families share (the baseline,
// SA-NMT, LGP-NMT, the latent-graph models):
//   x_t = [E(y_{t-1}); u_{t-1}]  ->  k stacked LSTM cells  ->  h_t
//   alpha_t = attention of h_t over the content memory S,  c_t = S alpha_t
//   for each extra memory M_m (a syntactic memory, a dependency composition):
//     d_m = M_m alpha_t          (shared: the content attention's weights; same length as S)
//         = M_m gamma_m,t        (own attention, with its own length mask and score kind)
//     d_m <- sigma(W_g h_t) * d_m  (optional gate)
//   u_t = tanh(W_u [h_t; c_t; d_1; ...])   (dropout on u_t; it is fed to the next step)
// The initial state comes from a bridge over the mean of the memory, from one encoder position
// (LGP's EOS state), or is zero. The decoder keeps everything in a DecodeState so that beam search
// reorders it like any other family's state.
#include <torch/nn/module.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/rnn.h>
#include <torch/types.h>

#include <map>
#include <string>
#include <vector>

#include "trainer/nn/model_io.h"
#include "trainer/nn/luong_attention.h"

namespace synmt {

enum class DecoderInit { kBridge, kPosition, kZero };
DecoderInit parse_decoder_init(const std::string& name, const std::string& context);  // bridge | position | zero

struct ExtraMemoryOptions {
  std::string name;            // the memory's key: state "memory/<name>", "allowed/<name>"
  int64_t dim = 0;
  bool shared_attention = true;  // weights of the content attention (the memory must have its length)
  AttentionScore score = AttentionScore::kGeneral;  // own attention only
  bool gate = false;           // sigma(W_g h_t) * d
};

struct InputFeedingDecoderOptions {
  int64_t embed_dim = 0;    // target embedding size
  int64_t hidden = 0;
  int64_t layers = 1;
  int64_t memory_dim = 0;   // content memory (encoder states)
  int64_t output_dim = 0;   // u_t (the target embedding size when the output layer is tied)
  AttentionScore score = AttentionScore::kGeneral;
  DecoderInit init = DecoderInit::kBridge;
  double dropout = 0.0;     // between LSTM layers and on u_t
  std::vector<ExtraMemoryOptions> extra_memories;
};

class InputFeedingDecoderImpl : public torch::nn::Module {
 public:
  explicit InputFeedingDecoderImpl(const InputFeedingDecoderOptions& options);
  // Puts the content memory (B, S, D), its mask (B, S) and the initial state into `state`.
  // init_memory is what the bridge averages / the position is read from (the memory before
  // dropout); init_position (B) int64 is used with DecoderInit::kPosition, and init_cell (B, hidden),
  // when given, is the first layer's initial memory cell there (zero otherwise): the encoder's cell
  // at that position, as Hashimoto & Tsuruoka start theirs ("h_{N+1} and its corresponding memory cell").
  void start(DecodeState& state, const torch::Tensor& memory, const torch::Tensor& allowed,
             const torch::Tensor& init_memory, const torch::Tensor& lengths,
             const torch::Tensor& init_position = torch::Tensor(), const torch::Tensor& init_cell = torch::Tensor());
  // Adds extra memory `name` (B, S_m, D_m) with its mask (B, S_m).
  static void add_memory(DecodeState& state, const std::string& name, const torch::Tensor& memory, const torch::Tensor& allowed);
  // One step: updates the state; returns u_t (N, output_dim). Leaves the content attention in
  // state["attention"], an own attention in "attention/<name>" and a gate in "gate/<name>".
  torch::Tensor step(DecodeState& state, const torch::Tensor& prev_embedded);
  // Teacher forcing: step() at every position of the embedded targets (B, T, E); returns u
  // (B, T, output_dim). With `record`, each named state tensor (e.g. "attention", "gate/<name>")
  // after every step, stacked along dim 1 into record[name].
  torch::Tensor teacher_forced(DecodeState& state, const torch::Tensor& embedded,
                               std::map<std::string, torch::Tensor>* record = nullptr);

 private:
  InputFeedingDecoderOptions options_;
  torch::nn::Linear bridge_h{nullptr}, bridge_c{nullptr};
  std::vector<torch::nn::LSTMCell> cells;
  LuongAttention attention{nullptr};
  std::vector<LuongAttention> extra_attention;  // null for shared memories
  std::vector<torch::nn::Linear> gates;         // null without a gate
  torch::nn::Linear combine{nullptr};           // W_u
  torch::nn::Dropout dropout{nullptr};
};
TORCH_MODULE(InputFeedingDecoder);

}  // namespace synmt
