#pragma once
// The full state of a training run, saved every `checkpoint_interval` updates and on SIGTERM /
// SIGUSR1 so that `synmt-train --resume` continues exactly where the run stopped: parameters,
// optimiser moments, LibTorch's RNG (dropout), the position in the epoch's batch plan, schedule
// and counters. On one process the resumed run reproduces the uninterrupted one bit for bit.
#include <torch/optim/optimizer.h>

#include <cstdint>
#include <string>

#include "trainer/models/seq2seq_model.h"

namespace synmt {

inline constexpr const char* kTrainingStateFormat = "synmt-training-state-2";

struct TrainingCursor {
  int epoch = 1;
  int64_t batch_in_epoch = 0;  // batches of this epoch's plan already done
  int64_t steps = 0;
  double lr = 0;                // base rate after plateau halvings (the schedule applies on top)
  double best = 0;              // best validation value, lower is better (ppl, or -BLEU)
  double best_ppl = 0, best_bleu = 0, elapsed_seconds = 0;
  int halvings = 0, best_epoch = 0;
  int bad_validations = 0;      // in a row, for early stopping
  int64_t total_tokens = 0;
  int64_t skipped_updates = 0;  // non-finite loss or gradient
  int validations = 0;          // validations done (snapshot numbering)
  int64_t last_validation_step = -1;
};

// rank_rng_states: (ranks, state bytes) uint8, every rank's CPU generator state (gathered by the
// caller), so that a multi-rank run resumes with each rank's own dropout stream.
void save_training_state(const std::string& path, Seq2SeqModel& model, torch::optim::Optimizer& optimizer,
                         const TrainingCursor& cursor, const std::string& config_json, const torch::Tensor& rank_rng_states);
// True when `path` holds a training state of this format and this resolved config.
bool training_state_matches(const std::string& path, const std::string& config_json);
// Restores parameters, optimiser and this rank's RNG in place; refuses another format, another
// config, or a state saved by another number of ranks.
TrainingCursor load_training_state(const std::string& path, Seq2SeqModel& model, torch::optim::Optimizer& optimizer,
                                   const std::string& config_json, int rank, int ranks);

}  // namespace synmt
