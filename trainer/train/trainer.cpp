#include "trainer/train/trainer.h"

#include <ATen/CPUGeneratorImpl.h>

#include <torch/nn/utils/clip_grad.h>
#include <torch/optim/adam.h>
#include <torch/optim/sgd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/atomic_file.h"
#include "core/build_commit.h"
#include "core/config.h"
#include "core/log.h"
#include "trainer/comm/launcher.h"
#include "trainer/data/batches.h"
#include "trainer/device.h"
#include "trainer/loop/metrics_log.h"
#include "trainer/loop/validation_policy.h"
#include "trainer/models/checkpoint.h"
#include "trainer/train/criterion.h"
#include "trainer/train/fused_adam.h"
#include "trainer/train/training_state.h"
#include "trainer/train/update_step.h"
#include "trainer/train/validation_scores.h"

namespace synmt {

TrainOptions TrainOptions::from_json(const nlohmann::json& j) {
  TrainOptions o = options_from_json<TrainOptions>(j, "train");
  o.schedule.validate();
  if (o.keep_best == KeepBest::kBleu) o.valid_bleu = true;
  if (o.update_freq < 1) throw ConfigError("train.update_freq must be >= 1");
  if (o.batch_size < 1 || o.max_tokens < 0) throw ConfigError("train.batch_size must be >= 1 and max_tokens >= 0");
  if (o.label_smoothing < 0 || o.label_smoothing >= 1) throw ConfigError("train.label_smoothing must be in [0, 1)");
  if (o.valid_per_epoch < 0 || (o.valid_per_epoch == 0 && o.valid_interval < 1))
    throw ConfigError("train.valid_per_epoch must be >= 1, or 0 with valid_interval >= 1 (checks every valid_interval updates only)");
  if (o.criterion == CriterionKind::kBlackout && (o.blackout_samples < 1 || o.blackout_alpha < 0 || o.label_smoothing != 0))
    throw ConfigError("train.criterion blackout needs blackout_samples >= 1, blackout_alpha >= 0 and no label smoothing");
  parse_halving_rule(o.halve_lr_when);
  parse_loss_normalisation(o.loss_normalisation);
  if (o.max_halvings < 0) throw ConfigError("train.max_halvings must be >= 0 (0: never stop for halvings)");
  if (o.precision == Precision::kBf16 && o.device.rfind("cuda", 0) != 0)
    throw ConfigError("train.precision = bf16 needs train.device = cuda: training on the CPU stays in float32");
  return o;
}

nlohmann::json TrainOptions::to_json() const { return options_to_json(*this); }

std::unique_ptr<torch::optim::Optimizer> make_optimizer(Seq2SeqModel& model, const TrainOptions& o) {
  if (o.optimizer == OptimizerKind::kSgd)
    return std::make_unique<torch::optim::SGD>(
        model.parameters(), torch::optim::SGDOptions(o.lr).momentum(o.momentum).weight_decay(o.weight_decay));
  // the fused kernel: one pass per parameter instead of six element-wise ops (same state as
  // torch::optim::Adam, so states written by earlier builds resume)
  return std::make_unique<FusedAdam>(model.parameters(), torch::optim::AdamOptions(o.lr)
                                                                        .betas({o.adam_beta1, o.adam_beta2})
                                                                        .eps(o.adam_eps)
                                                                        .weight_decay(o.weight_decay));
}

namespace {
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::atomic<int> g_stop_signal{0};
extern "C" void remember_signal(int sig) { g_stop_signal.store(sig); }


void set_lr(torch::optim::Optimizer& optimizer, double lr) {
  for (auto& group : optimizer.param_groups()) group.options().set_lr(lr);
}

// snapshot.<k>.pt: the parameters at the k-th validation (epoch ends, or every valid_interval updates)
std::string snapshot_path(const std::string& out_dir, int validation) {
  return out_dir + "/snapshot." + std::to_string(validation) + ".pt";
}

// One training run (train_model): the model on its device, the optimizer, the criterion and the
// update step built in the constructor (in the order that seeds and broadcasts require), then
// epochs of updates with logging, validation, keep-best, signals, budgets and the training state
// for an exact resume, each in a member of its own.
class Trainer {
 public:
  Trainer(Seq2SeqModel& model, const nlohmann::json& config, const TrainOptions& o, const ParallelData& train,
          const ParallelData& valid, const std::string& out_dir, const std::string& hardware, Communicator& comm,
          torch::Device device, const Vocab* tgt_vocab)
      : model_(model), config_(config), o_(o), valid_(valid), out_dir_(out_dir), hardware_(hardware), comm_(comm),
        device_(device), tgt_vocab_(tgt_vocab), state_path_(out_dir + "/state.pt"), config_json_(config.dump()),
        policy_{o.patience, o.halve_lr_on_plateau, parse_halving_rule(o.halve_lr_when), o.max_halvings} {
    if (o.valid_bleu && !tgt_vocab) throw ConfigError("train.valid_bleu needs the target vocabulary");
    model.to(device);  // before the optimizer exists: its state is created next to the parameters
    // SIGTERM (SLURM preemption, scancel) and SIGUSR1 (SLURM --signal) checkpoint and stop the run
    std::signal(SIGTERM, remember_signal);
    std::signal(SIGUSR1, remember_signal);
    broadcast_parameters();
    torch::manual_seed(o.seed + static_cast<uint64_t>(comm.rank()));  // dropout noise differs per rank
    BatchOptions bo;
    bo.batch_size = o.batch_size;
    bo.max_tokens = o.max_tokens;
    bo.max_len = o.max_len;
    bo.seed = o.seed;
    batches_ = std::make_unique<BatchIterator>(train, bo);
    if (batches_->skipped() > 0 && comm.is_root())
      log_info("training: skipping " + std::to_string(batches_->skipped()) + " pairs longer than " + std::to_string(o.max_len));
    optimizer_ = make_optimizer(model, o);
    CriterionOptions co{o.label_smoothing, o.aux_loss_weights};
    if (o.criterion == CriterionKind::kBlackout)
      co.use_blackout(o.blackout_samples, o.blackout_alpha, train.tgt_tokens, train.size(),
                      config["model"]["options"].value("tgt_vocab", int64_t{0}));
    criterion_ = std::make_unique<Criterion>(co);
    update_step_ = std::make_unique<UpdateStep>(
        model, *batches_, *criterion_, ForwardRequest{/*log_probs=*/!co.blackout, /*analysis=*/false}, comm, device,
        UpdateStepOptions{o.update_freq, o.clip_norm, o.precision == Precision::kBf16, parse_loss_normalisation(o.loss_normalisation)});
  }

  TrainResult run(bool resume) {
    restore(resume);
    if (comm_.is_root()) metrics_ = MetricsLog(out_dir_ + "/metrics.jsonl", /*append=*/true);
    record_session();
    start_ = Clock::now();
    window_ = MetricsWindow();
    elapsed_before_ = cur_.elapsed_seconds;
    lr_now_ = cur_.lr;
    bool stop = false;
    for (; cur_.epoch <= o_.max_epochs && !stop; ++cur_.epoch, cur_.batch_in_epoch = 0) {
      stop = train_epoch();
      result_.epochs = cur_.epoch;
      // valid_per_epoch 0: no check at an epoch end (SA-NMT's "every 10,000 updates") but the
      // last, so the final parameters still compete for the kept checkpoint
      const bool epoch_end_check = o_.valid_per_epoch > 0 || stop || cur_.epoch == o_.max_epochs;
      if (epoch_end_check && cur_.last_validation_step != cur_.steps && validate()) stop = true;
      model_.train();
      if (!stop) {  // the next epoch starts from here after a resume
        TrainingCursor next = cur_;
        ++next.epoch;
        next.batch_in_epoch = 0;
        save_state(next);
      }
    }
    finish();
    return result_;
  }

 private:
  void broadcast_parameters() {  // every rank starts from rank 0's parameters
    std::vector<torch::Tensor> params;
    for (auto& p : model_.parameters()) params.push_back(p.data());
    comm_.broadcast(params, 0);
  }

  // This build on this machine trains from here on; a resume by the same build on the same
  // hardware continues the last session rather than listing it again.
  void record_session() {
    TrainingSession now{build_commit(), hardware_, cur_.steps, comm_.size()};
    const bool same = !cur_.sessions.empty() && cur_.sessions.back().commit == now.commit &&
                      cur_.sessions.back().hardware == now.hardware && cur_.sessions.back().ranks == now.ranks;
    if (same) return;
    cur_.sessions.push_back(now);
    metrics_.write({{"type", "session"}, {"step", now.from_step}, {"epoch", cur_.epoch}, {"commit", now.commit},
                    {"hardware", now.hardware}, {"ranks", now.ranks}});
  }

  double elapsed() const { return elapsed_before_ + seconds_since(start_); }

  // The cursor, parameters, optimizer and RNG states of state.pt when resuming; a state of another
  // configuration is moved aside.
  void restore(bool resume) {
    cur_.lr = o_.lr;
    cur_.best = std::numeric_limits<double>::infinity();
    if (resume && std::filesystem::exists(state_path_) && !training_state_matches(state_path_, config_json_)) {
      if (comm_.is_root()) {
        log_warn(state_path_ + " belongs to another configuration or other data (config.json's model, train and data); "
                 "moved to state.pt.stale, starting afresh");
        std::filesystem::rename(state_path_, state_path_ + ".stale");
      }
      comm_.barrier();
    }
    if (resume && std::filesystem::exists(state_path_)) {
      cur_ = load_training_state(state_path_, model_, *optimizer_, config_json_, comm_.rank(), comm_.size());
      if (comm_.is_root()) {
        log_info("resuming at epoch " + std::to_string(cur_.epoch) + ", batch " + std::to_string(cur_.batch_in_epoch) +
                 ", update " + std::to_string(cur_.steps));
        restore_best_from_state();
      }
    } else if (comm_.is_root()) {
      if (resume) log_info("--resume: no " + state_path_ + " yet, starting from scratch");
      std::filesystem::remove(kept_best_path());  // an earlier run's best must not come back into this one
    }
    comm_.barrier();
  }

  // Snakemake deletes a failed job's declared outputs, best.pt among them, and a resumed run that
  // never improves again could not rebuild it: the training state keeps its own name for the best
  // weights (a hard link, so no second copy on disk; a copy where the file system has no links).
  std::string best_path() const { return out_dir_ + "/best.pt"; }
  std::string kept_best_path() const { return out_dir_ + "/state.best.pt"; }
  static void link_or_copy(const std::string& from, const std::string& to) {
    std::error_code ec;
    std::filesystem::create_hard_link(from, to, ec);
    if (ec) std::filesystem::copy_file(from, to);
  }
  void keep_best_in_state() {
    std::filesystem::remove(kept_best_path());
    link_or_copy(best_path(), kept_best_path());
  }
  void restore_best_from_state() {
    if (std::filesystem::exists(best_path()) || !std::filesystem::exists(kept_best_path())) return;
    link_or_copy(kept_best_path(), best_path());
    log_info(best_path() + " was missing (removed after an interrupted run): restored from " + kept_best_path());
  }

  // Every rank's RNG state goes into the training state (a collective: all ranks call it at the
  // same points), so that each rank resumes its own dropout stream.
  torch::Tensor gather_rng_states() {
    auto own = at::detail::getDefaultCPUGenerator().get_state();
    if (device_.is_cuda())  // dropout on a GPU draws from its generator: its state follows the CPU one's
      own = torch::cat({own, at::globalContext().defaultGenerator(device_).get_state()});
    auto all = torch::zeros({comm_.size(), own.numel()}, torch::kFloat32);
    all[comm_.rank()].copy_(own.to(torch::kFloat32));  // bytes are exact in float32
    std::vector<torch::Tensor> bucket{all};
    comm_.allreduce_sum(bucket);
    return bucket[0].to(torch::kUInt8);
  }
  void save_state(const TrainingCursor& c) {
    auto rngs = gather_rng_states();
    if (comm_.is_root()) save_training_state(state_path_, model_, *optimizer_, c, config_json_, rngs);
  }

  // One epoch from the cursor on; true when training should stop.
  bool train_epoch() {
    model_.train();
    auto plan = batches_->epoch_plan(cur_.epoch);
    Progress progress("epoch " + std::to_string(cur_.epoch), plan.size(), 60.0);
    bool stop = false;
    while (cur_.batch_in_epoch < static_cast<int64_t>(plan.size())) {
      // a run resumed from a state saved at its last update (killed before it finished) must not
      // take one more: the budget is checked before every update too, not only after
      if (o_.max_steps > 0 && cur_.steps >= o_.max_steps) {
        stop = true;
        break;
      }
      if (update(plan, progress)) {
        stop = true;
        break;
      }
    }
    progress.finish();
    return stop;
  }

  // One update (update_freq batches); true when training should stop after it.
  bool update(const std::vector<std::vector<int64_t>>& plan, Progress& progress) {
    TrainingContext context;
    context.update = cur_.steps;
    context.epoch = cur_.epoch;
    context.epoch_fraction = static_cast<double>(cur_.batch_in_epoch) / static_cast<double>(plan.size());
    context.updates_per_epoch = (static_cast<int64_t>(plan.size()) + o_.update_freq - 1) / o_.update_freq;
    model_.set_training_context(context);
    const UpdateTotals totals = update_step_->run(plan, cur_.batch_in_epoch, *optimizer_, /*check_features=*/cur_.steps == 0);
    // the part of the epoch this update ends in (valid_per_epoch: validate when it changes)
    const auto part_of = [&](int64_t b) { return b * o_.valid_per_epoch / static_cast<int64_t>(plan.size()); };
    const bool part_done = o_.valid_per_epoch > 1 && part_of(cur_.batch_in_epoch + totals.batches) > part_of(cur_.batch_in_epoch) &&
                           cur_.batch_in_epoch + totals.batches < static_cast<int64_t>(plan.size());
    cur_.batch_in_epoch += totals.batches;
    if (!std::isfinite(totals.loss_sum) || !std::isfinite(totals.grad_norm)) {
      skip_update();
      progress.advance(static_cast<std::size_t>(totals.batches));
      return false;
    }
    lr_now_ = scheduled_lr(o_.schedule, cur_.lr, cur_.steps + 1, cur_.epoch);
    set_lr(*optimizer_, lr_now_);
    optimizer_->step();
    ++cur_.steps;
    record(totals);
    progress.advance(static_cast<std::size_t>(totals.batches));
    if (cur_.steps % o_.log_interval == 0 && comm_.is_root()) {
      std::string detail;
      metrics_.write(window_.close(cur_, lr_now_, totals.grad_norm, elapsed(), detail));
      progress.set_detail(detail);
    }
    cur_.elapsed_seconds = elapsed();
    return after_update(part_done);
  }

  // Every rank sees the same summed values, so all of them skip together.
  void skip_update() {
    ++cur_.skipped_updates;
    if (comm_.is_root()) {
      log_warn("update " + std::to_string(cur_.steps + 1) + ": non-finite loss or gradient norm; update skipped (" +
               std::to_string(cur_.skipped_updates) + " so far)");
      metrics_.write({{"type", "skipped_update"}, {"step", cur_.steps + 1}, {"epoch", cur_.epoch},
                      {"skipped_updates", cur_.skipped_updates}});
    }
    optimizer_->zero_grad();
    if (cur_.skipped_updates > o_.max_skipped_updates)
      throw TrainingFailed("stopping: " + std::to_string(cur_.skipped_updates) +
                           " updates had a non-finite loss or gradient (train.max_skipped_updates = " +
                           std::to_string(o_.max_skipped_updates) + "); lower the learning rate or check the data");
  }

  // The update's sums over every rank into the log window and the cursor.
  void record(const UpdateTotals& totals) {
    const double nll = comm_.allreduce_sum(totals.local_nll_sum);
    std::map<std::string, double> aux;
    // every rank runs the same model, so every rank has the same term names (sorted by the map)
    for (const auto& [name, value] : totals.local_aux) aux[name] = comm_.allreduce_sum(value);
    window_.add(totals.loss_sum, nll, aux, static_cast<int64_t>(totals.target_tokens));
    cur_.total_tokens += static_cast<int64_t>(totals.target_tokens);
  }

  // Signals, mid-epoch validation, periodic states and budgets: collective decisions, so that
  // ranks never part ways. True when training should stop.
  bool after_update(bool part_done) {
    const double signal = comm_.allreduce_sum(static_cast<double>(g_stop_signal.load()));
    if (signal > 0) {
      save_state(cur_);
      comm_.barrier();
      const int sig = g_stop_signal.load() > 0 ? g_stop_signal.load() : SIGTERM;
      if (comm_.is_root()) log_info("signal " + std::to_string(sig) + ": training state saved to " + state_path_);
      throw TrainingInterrupted(sig);
    }
    if (((o_.valid_interval > 0 && cur_.steps % o_.valid_interval == 0) || part_done) && validate()) return true;
    if (o_.checkpoint_interval > 0 && cur_.steps % o_.checkpoint_interval == 0) save_state(cur_);
    const bool budget = (o_.max_minutes > 0 && elapsed() > o_.max_minutes * 60) || (o_.max_steps > 0 && cur_.steps >= o_.max_steps);
    if (comm_.allreduce_sum(budget ? 1.0 : 0.0) > 0) {
      if (comm_.is_root()) log_info("training: budget reached (time or steps) in epoch " + std::to_string(cur_.epoch));
      return true;
    }
    return false;
  }

  // Validation (at epoch ends unless valid_per_epoch is 0, valid_per_epoch times an epoch (LGP:
  // twice), and every valid_interval updates when set): perplexity, optionally greedy BLEU, keep-best, plateau halving, patience, snapshots for
  // averaging. Every rank computes it on the same parameters, so every rank decides the same.
  // True when training should stop.
  bool validate() {
    cur_.last_validation_step = cur_.steps;
    ++cur_.validations;
    auto [valid_nll, valid_tokens] = evaluate_nll(model_, valid_, o_.batch_size, 1 << 20);
    const double ppl = std::exp(valid_nll);
    std::vector<std::string> valid_hyps;
    const double bleu = o_.valid_bleu ? evaluate_greedy_bleu(model_, valid_, *tgt_vocab_, 64, &valid_hyps) : 0.0;
    const double value = o_.keep_best == KeepBest::kBleu ? -bleu : ppl;
    if (comm_.is_root()) log_validation(ppl, valid_tokens, bleu);
    const ValidationDecision decision = apply_validation(policy_, cur_, value, ppl, bleu);
    if (decision.improved && comm_.is_root()) {
      save_checkpoint(best_path(), model_, config_);
      keep_best_in_state();
      if (o_.valid_bleu) {  // what best.pt translates in-process: a reloaded checkpoint must give the same
        AtomicFile hyp(out_dir_ + "/best.valid.hyp");
        for (const auto& h : valid_hyps) hyp.write_line(h);
        hyp.commit();
      }
    }
    if (comm_.is_root())
      for (const auto& reason : decision.stop_reasons) log_info(reason);
    if (o_.average_last > 0 && comm_.is_root()) {
      save_checkpoint(snapshot_path(out_dir_, cur_.validations), model_, config_);
      std::filesystem::remove(snapshot_path(out_dir_, cur_.validations - o_.average_last));
    }
    model_.train();
    return decision.stop();
  }
  void log_validation(double ppl, int64_t valid_tokens, double bleu) {
    nlohmann::json m = {{"type", "valid"}, {"step", cur_.steps}, {"epoch", cur_.epoch}, {"valid_ppl", ppl},
                        {"valid_tokens", valid_tokens}, {"lr", lr_now_}, {"elapsed_s", elapsed()}};
    if (o_.valid_bleu) m["valid_bleu"] = bleu;
    metrics_.write(m);
    log_info("epoch " + std::to_string(cur_.epoch) + ", update " + std::to_string(cur_.steps) + ": valid ppl " +
             std::to_string(ppl) + (o_.valid_bleu ? ", valid BLEU " + std::to_string(bleu) : std::string()) + ", lr " +
             std::to_string(lr_now_) + ", " + std::to_string(static_cast<int>(elapsed())) + " s");
  }

  // last.pt, averaged.pt, summary.json and the result.
  void finish() {
    if (comm_.is_root()) {
      save_checkpoint(out_dir_ + "/last.pt", model_, config_);
      if (o_.average_last > 0) {
        std::vector<std::string> snapshots;
        for (int v = std::max(1, cur_.validations - o_.average_last + 1); v <= cur_.validations; ++v)
          if (std::filesystem::exists(snapshot_path(out_dir_, v))) snapshots.push_back(snapshot_path(out_dir_, v));
        if (!snapshots.empty()) average_checkpoints(snapshots, out_dir_ + "/averaged.pt");
        log_info("averaged.pt: mean of the last " + std::to_string(snapshots.size()) + " validation-time snapshots");
      }
    }
    result_.steps = cur_.steps;
    result_.best_epoch = cur_.best_epoch;
    result_.best_valid_ppl = cur_.best_ppl;
    result_.best_valid_bleu = cur_.best_bleu;
    result_.seconds = elapsed();
    result_.target_tokens_per_second = cur_.total_tokens / std::max(1e-9, result_.seconds);
    nlohmann::json summary = {{"best_valid_ppl", cur_.best_ppl}, {"best_epoch", cur_.best_epoch},
                              {"keep_best", enum_name(o_.keep_best)}, {"epochs", result_.epochs},
                              {"steps", cur_.steps}, {"skipped_updates", cur_.skipped_updates},
                              {"train_seconds", result_.seconds}, {"tgt_tokens_per_s", result_.target_tokens_per_second},
                              {"hardware", hardware_}, {"ranks", comm_.size()},
                              {"sessions", sessions_to_json(cur_.sessions)}};
    if (o_.valid_bleu) summary["best_valid_bleu"] = cur_.best_bleu;
    if (comm_.is_root()) write_file_atomically(out_dir_ + "/summary.json", summary.dump(2) + "\n");
    comm_.barrier();
  }

  Seq2SeqModel& model_;
  const nlohmann::json& config_;
  const TrainOptions& o_;
  const ParallelData& valid_;
  const std::string out_dir_, hardware_;
  Communicator& comm_;
  const torch::Device device_;
  const Vocab* tgt_vocab_;
  const std::string state_path_, config_json_;
  const ValidationPolicy policy_;
  std::unique_ptr<BatchIterator> batches_;
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  std::unique_ptr<Criterion> criterion_;
  std::unique_ptr<UpdateStep> update_step_;
  TrainingCursor cur_;
  MetricsLog metrics_;
  MetricsWindow window_;
  TrainResult result_;
  Clock::time_point start_ = Clock::now();
  double elapsed_before_ = 0, lr_now_ = 0;
};

}  // namespace

TrainResult train_model(Seq2SeqModel& model, const nlohmann::json& config, const TrainOptions& o, const ParallelData& train,
                        const ParallelData& valid, const std::string& out_dir, const std::string& hardware, Communicator& comm,
                        bool resume, const Vocab* tgt_vocab, std::optional<torch::Device> device) {
  const torch::Device on = device ? *device : resolve_device(o.device, launcher_environment().local_rank);
  return Trainer(model, config, o, train, valid, out_dir, hardware, comm, on, tgt_vocab).run(resume);
}

}  // namespace synmt
