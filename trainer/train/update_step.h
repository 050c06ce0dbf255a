#pragma once
// One update's forward and backward passes (trainer.h's loop calls it once per update): the
// update's batches (update_freq of them, this rank's share of each), gradients summed over the
// batches and the ranks and divided by the global target-token count, then clipped. The optimiser
// step is the caller's, after it has checked the values are finite.
#include <torch/optim/optimizer.h>

#include <map>
#include <string>
#include <vector>

#include "trainer/comm/communicator.h"
#include "trainer/data/batches.h"
#include "trainer/models/seq2seq_model.h"
#include "trainer/train/criterion.h"

namespace synmt {

struct UpdateTotals {
  int64_t batches = 0;          // of the plan consumed (update_freq, fewer at the epoch's end)
  double target_tokens = 0;     // summed over ranks
  double sentences = 0;         // summed over ranks
  double loss_sum = 0;          // the objective, summed over ranks
  double grad_norm = 0;         // before clipping
  double local_nll_sum = 0;     // this rank's (summed by the caller once the update is kept)
  std::map<std::string, double> local_aux;  // this rank's auxiliary losses, by name
};

// What the summed loss of an update is divided by before clipping and the step: the target tokens
// of the whole update (every rank's; fairseq, Marian) or its sentences (a per-sentence mean: the
// released SA-NMT code's loss.div(batch_size), and Hashimoto's N3LP, which sums each sentence's
// token losses and divides the gradient by the mini-batch size before clipping). With SGD and
// clipping the two give different steps; Adam is nearly invariant to the constant.
enum class LossNormalisation { kTargetTokens, kSentences };
LossNormalisation parse_loss_normalisation(const std::string& name);  // target_tokens | sentences

struct UpdateStepOptions {
  int update_freq = 1;
  double clip_norm = 5.0;  // 0: no clipping (the norm is still computed)
  bool bf16 = false;       // autocast the forward pass and loss to bfloat16 (CUDA)
  LossNormalisation normalise_by = LossNormalisation::kTargetTokens;
};

class UpdateStep {
 public:
  UpdateStep(Seq2SeqModel& model, const BatchIterator& batches, const Criterion& criterion, ForwardRequest request,
             Communicator& comm, torch::Device device, UpdateStepOptions options)
      : model_(model), batches_(batches), criterion_(criterion), request_(request), comm_(comm), device_(device), options_(options) {}

  // Zeroes the gradients, then runs the plan's batches from `first` (at most update_freq).
  // Collectives in a fixed order on every rank: the token and sentence counts, the gradients, the
  // loss. The gradients are divided by the global count that options.normalise_by names.
  UpdateTotals run(const std::vector<std::vector<int64_t>>& plan, int64_t first, torch::optim::Optimizer& optimizer,
                   bool check_features);

 private:
  Seq2SeqModel& model_;
  const BatchIterator& batches_;
  const Criterion& criterion_;
  ForwardRequest request_;
  Communicator& comm_;
  torch::Device device_;
  UpdateStepOptions options_;
};

}  // namespace synmt
