#pragma once
// The training loop: Adam or SGD with momentum, L2, gradient clipping, label smoothing, learning-rate
// schedules (lr_schedule.h) with halve-on-plateau on top (SA-NMT, LGP), sentence- or token-count
// batches with gradient accumulation, validation perplexity (and BLEU) after every epoch, keep-best
// by either, early stopping, averaging of the last N epoch snapshots, skipping of non-finite
// updates, a wall-clock budget, metrics.jsonl and a summary JSON for the results tables.
#include <array>
#include <map>
#include <memory>
#include <stdexcept>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/config.h"
#include "preprocess/dataset_file.h"
#include "preprocess/vocab.h"
#include "trainer/comm/communicator.h"
#include "trainer/models/seq2seq_model.h"
#include "trainer/train/lr_schedule.h"

namespace torch::optim {
class Optimizer;
}

namespace synmt {

// The closed sets of training choices (JSON holds their names: core/config.h EnumNames).
enum class OptimizerKind { kAdam, kSgd };
enum class CriterionKind { kCrossEntropy, kBlackout };  // full softmax | BlackOut (training only)
enum class KeepBest { kPpl, kBleu };                      // the validation metric for best.pt, plateaus, patience
enum class Precision { kFp32, kBf16 };                    // bf16: CUDA autocast, float32 master weights

template <>
struct EnumNames<OptimizerKind> {
  static constexpr std::array<std::pair<OptimizerKind, const char*>, 2> list{{{OptimizerKind::kAdam, "adam"}, {OptimizerKind::kSgd, "sgd"}}};
};
template <>
struct EnumNames<CriterionKind> {
  static constexpr std::array<std::pair<CriterionKind, const char*>, 2> list{
      {{CriterionKind::kCrossEntropy, "cross_entropy"}, {CriterionKind::kBlackout, "blackout"}}};
};
template <>
struct EnumNames<KeepBest> {
  static constexpr std::array<std::pair<KeepBest, const char*>, 2> list{{{KeepBest::kPpl, "ppl"}, {KeepBest::kBleu, "bleu"}}};
};
template <>
struct EnumNames<Precision> {
  static constexpr std::array<std::pair<Precision, const char*>, 2> list{{{Precision::kFp32, "fp32"}, {Precision::kBf16, "bf16"}}};
};

struct TrainOptions {
  int batch_size = 64;         // sentences per batch (max_tokens = 0)
  int max_tokens = 0;          // >0: token-count batches (max(src, tgt+1) x sentences <= max_tokens)
  int update_freq = 1;         // batches accumulated per update
  int max_epochs = 10;
  double max_minutes = 0;      // 0: no wall-clock budget
  OptimizerKind optimizer = OptimizerKind::kAdam;
  double lr = 1e-3;
  double momentum = 0.0;       // sgd
  LrSchedule schedule;         // keys lr_schedule, warmup_steps, warmup_init_lr, decay_rate, decay_every, decay_unit
  double adam_beta1 = 0.9, adam_beta2 = 0.999, adam_eps = 1e-8;
  double weight_decay = 0;     // L2 penalty (added to the gradient, as in the papers' SGD/Adam)
  double clip_norm = 5.0;      // 0: no clipping
  double label_smoothing = 0.0;
  CriterionKind criterion = CriterionKind::kCrossEntropy;
  int blackout_samples = 2000;    // K negatives per sentence
  double blackout_alpha = 0.4;    // noise q ~ unigram^alpha of the training targets
  std::map<std::string, double> aux_loss_weights;  // criterion weight per auxiliary loss name (default 1)
  bool halve_lr_on_plateau = true;
  std::string halve_lr_when = "no_new_best";  // rises | no_new_best (validation_policy.h)
  int max_halvings = 5;                       // stop at this halving; 0 = never
  std::string loss_normalisation = "target_tokens";  // target_tokens | sentences (update_step.h)
  int patience = 0;            // >0: stop after this many validations without improvement
  KeepBest keep_best = KeepBest::kPpl;
  bool valid_bleu = false;     // greedy-decode the validation set each epoch (on when keep_best = bleu)
  int average_last = 0;        // >0: also write averaged.pt, the mean of the parameters at the last N validations
  int valid_interval = 0;      // >0: also validate every this many updates
  // validations per epoch at equal fractions of its batches, the last at the epoch end (LGP: 2,
  // every half epoch); unlike valid_interval, never two checks a few updates apart at an epoch end.
  // 0 (with valid_interval): only every valid_interval updates, and once when training ends
  int valid_per_epoch = 1;
  int max_skipped_updates = 10;  // updates with a non-finite loss/gradient are skipped; more than this stops the run
  int max_len = 100;
  int log_interval = 50;       // steps
  int max_steps = 0;           // 0: unlimited (tests and the e2e slice use a few dozen)
  int checkpoint_interval = 500;  // updates between training-state saves (0: epoch ends only)
  int threads = 0;             // 0: all cores
  // seconds a rank waits in one collective (gradient sum, barrier) before it ends the whole job
  // with a message: a stalled rank (a hung node, a stopped process) must not hang the job forever.
  // Longer than the slowest validation, which the other ranks wait out. 0: wait forever.
  int comm_timeout = 1800;
  uint64_t seed = 1;
  std::string device = "cpu";  // cpu | cuda (this rank's GPU) | cuda:N
  Precision precision = Precision::kFp32;

  // The JSON keys, once: from_json / to_json (core/config.h) visit them.
  template <class Self, class Visit>
  static void fields(Self& o, Visit&& v) {
    v("batch_size", o.batch_size);
    v("max_tokens", o.max_tokens);
    v("update_freq", o.update_freq);
    v("max_epochs", o.max_epochs);
    v("max_minutes", o.max_minutes);
    v("optimizer", o.optimizer);
    v("lr", o.lr);
    v("momentum", o.momentum);
    v("lr_schedule", o.schedule.kind);
    v("warmup_steps", o.schedule.warmup_steps);
    v("warmup_init_lr", o.schedule.warmup_init_lr);
    v("decay_rate", o.schedule.decay_rate);
    v("decay_every", o.schedule.decay_every);
    v("decay_unit", o.schedule.decay_unit);
    v("adam_beta1", o.adam_beta1);
    v("adam_beta2", o.adam_beta2);
    v("adam_eps", o.adam_eps);
    v("weight_decay", o.weight_decay);
    v("clip_norm", o.clip_norm);
    v("label_smoothing", o.label_smoothing);
    v("criterion", o.criterion);
    v("blackout_samples", o.blackout_samples);
    v("blackout_alpha", o.blackout_alpha);
    v("aux_loss_weights", o.aux_loss_weights);
    v("halve_lr_on_plateau", o.halve_lr_on_plateau);
    v("halve_lr_when", o.halve_lr_when);
    v("max_halvings", o.max_halvings);
    v("loss_normalisation", o.loss_normalisation);
    v("patience", o.patience);
    v("keep_best", o.keep_best);
    v("valid_bleu", o.valid_bleu);
    v("average_last", o.average_last);
    v("valid_interval", o.valid_interval);
    v("valid_per_epoch", o.valid_per_epoch);
    v("max_skipped_updates", o.max_skipped_updates);
    v("max_len", o.max_len);
    v("log_interval", o.log_interval);
    v("max_steps", o.max_steps);
    v("checkpoint_interval", o.checkpoint_interval);
    v("threads", o.threads);
    v("comm_timeout", o.comm_timeout);
    v("seed", o.seed);
    v("device", o.device);
    v("precision", o.precision);
  }
  static TrainOptions from_json(const nlohmann::json& j);
  nlohmann::json to_json() const;
};

struct TrainResult {
  double best_valid_ppl = 0, best_valid_bleu = 0;
  int best_epoch = 0, epochs = 0;
  int64_t steps = 0;
  double seconds = 0, target_tokens_per_second = 0;
};

// The optimizer the options name (SGD with their momentum and weight decay, or Adam as the fused
// kernel with their betas, eps and weight decay) over the model's parameters.
std::unique_ptr<torch::optim::Optimizer> make_optimizer(Seq2SeqModel& model, const TrainOptions& options);

// config: the resolved run config (stored in every checkpoint). Writes out_dir/{best.pt,last.pt,
// metrics.jsonl,summary.json}, and with valid_bleu best.valid.hyp (the greedy validation
// translations of best.pt, BPE removed).
// With several ranks every rank trains on its share of each batch (sentences rank, rank+size, ...
// of the same batch plan); gradients and token counts are summed over ranks before the update, so
// N ranks with batch B update exactly like one process with batch B (up to summation order).
// Only rank 0 writes files. device: where the model trains, as the caller resolved it (synmt-train
// resolves it once, before its communicator); without it, train.device for this rank's local rank.
TrainResult train_model(Seq2SeqModel& model, const nlohmann::json& config, const TrainOptions& options,
                        const ParallelData& train, const ParallelData& valid, const std::string& out_dir,
                        const std::string& hardware, Communicator& comm, bool resume = false,
                        const Vocab* tgt_vocab = nullptr, std::optional<torch::Device> device = std::nullopt);

// The run cannot go on (e.g. too many non-finite updates); main() reports it and exits 1.
struct TrainingFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Thrown when SIGTERM / SIGUSR1 stopped the run after saving the training state; main() exits
// with 128 + signal so that a scheduler can requeue the job (143 for SIGTERM, 138 for SIGUSR1).
struct TrainingInterrupted : std::runtime_error {
  explicit TrainingInterrupted(int sig) : std::runtime_error("interrupted by signal " + std::to_string(sig)), signal(sig) {}
  int signal;
};

}  // namespace synmt
