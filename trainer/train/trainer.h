#pragma once
// The training loop: Adam, gradient clipping, validation perplexity after every epoch, keep-best
// checkpoint, halve-on-plateau learning rate with a stop after N halvings (SA-NMT's schedule), a
// wall-clock budget, metrics.jsonl and a summary JSON for the results tables.
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "preprocess/dataset_file.h"
#include "trainer/dist/communicator.h"
#include "trainer/models/seq2seq_model.h"

namespace synmt {

struct TrainOptions {
  int batch_size = 64;
  int max_epochs = 10;
  double max_minutes = 0;      // 0: no wall-clock budget
  double lr = 1e-3;
  double adam_beta1 = 0.9, adam_beta2 = 0.999, adam_eps = 1e-8;
  double weight_decay = 0;
  double clip_norm = 5.0;
  double label_smoothing = 0.0;
  bool halve_lr_on_plateau = true;
  int max_halvings = 5;
  int max_len = 100;
  int log_interval = 50;       // steps
  int max_steps = 0;           // 0: unlimited (tests and the e2e slice use a few dozen)
  int checkpoint_interval = 500;  // updates between training-state saves (0: epoch ends only)
  int threads = 0;             // 0: all cores
  uint64_t seed = 1;

  static TrainOptions from_json(const nlohmann::json& j);
  nlohmann::json to_json() const;
};

struct TrainResult {
  double best_valid_ppl = 0;
  int best_epoch = 0, epochs = 0;
  int64_t steps = 0;
  double seconds = 0, target_tokens_per_second = 0;
};

// config: the resolved run config (stored in every checkpoint). Writes out_dir/{best.pt,last.pt,
// metrics.jsonl,summary.json}.
// With several ranks every rank trains on its share of each batch (sentences rank, rank+size, ...
// of the same batch plan); gradients and token counts are summed over ranks before the update, so
// N ranks with batch B update exactly like one process with batch B (up to summation order).
// Only rank 0 writes files.
TrainResult train_model(Seq2SeqModel& model, const nlohmann::json& config, const TrainOptions& options,
                        const ParallelData& train, const ParallelData& valid, const std::string& out_dir,
                        const std::string& hardware, Communicator& comm, bool resume = false);

// Thrown when SIGTERM / SIGUSR1 stopped the run after saving the training state; main() exits
// with 128 + signal so that a scheduler can requeue the job (143 for SIGTERM, 138 for SIGUSR1).
struct TrainingInterrupted : std::runtime_error {
  explicit TrainingInterrupted(int sig) : std::runtime_error("interrupted by signal " + std::to_string(sig)), signal(sig) {}
  int signal;
};

// Mean NLL per target token and the token count over a dataset (no dropout, no gradients).
std::pair<double, int64_t> evaluate_nll(Seq2SeqModel& model, const ParallelData& data, int batch_size, int max_len);

}  // namespace synmt
