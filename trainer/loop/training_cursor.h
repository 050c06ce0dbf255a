#pragma once
// Where a training run stands: the position in the epoch's batch plan, the schedule's state and
// the counters that the training state (training_state.h) saves and --resume restores. Torch-free.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace synmt {

// One stretch of a run trained by one build on one machine, from its first update on: a run
// resumed by a newer build or on another device lists each, so that its results name every code
// version and device that computed them (summary.json "sessions").
struct TrainingSession {
  std::string commit;    // core/build_commit.h
  std::string hardware;  // device, threads, precision, LibTorch version
  int64_t from_step = 0;
  int ranks = 1;
};

struct TrainingCursor {
  int epoch = 1;
  int64_t batch_in_epoch = 0;  // batches of this epoch's plan already done
  int64_t steps = 0;
  double lr = 0;                // base rate after plateau halvings (the schedule applies on top)
  double best = 0;              // best validation value, lower is better (ppl, or -BLEU)
  double previous = std::numeric_limits<double>::infinity();  // the last validation's value
  double best_ppl = 0, best_bleu = 0, elapsed_seconds = 0;
  int halvings = 0, best_epoch = 0;
  int bad_validations = 0;      // in a row, for early stopping
  int64_t total_tokens = 0;
  int64_t skipped_updates = 0;  // non-finite loss or gradient
  int validations = 0;          // validations done (snapshot numbering)
  int64_t last_validation_step = -1;
  // states saved before sessions were recorded have none: the first listed then starts past 0
  std::vector<TrainingSession> sessions;
};

}  // namespace synmt
