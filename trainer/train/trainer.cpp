#include "trainer/train/trainer.h"

#include <torch/nn/utils/clip_grad.h>
#include <torch/optim/adam.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <cmath>
#include <fstream>

#include "core/atomic_file.h"
#include "core/config.h"
#include "core/log.h"
#include "preprocess/vocab.h"
#include "trainer/data/batches.h"
#include "trainer/train/checkpoint.h"
#include "trainer/train/loss.h"
#include "trainer/train/training_state.h"

namespace synmt {

TrainOptions TrainOptions::from_json(const nlohmann::json& j) {
  TrainOptions o;
  JsonFields f(j, "train");
  f.optional("batch_size", o.batch_size)
      .optional("max_epochs", o.max_epochs)
      .optional("max_minutes", o.max_minutes)
      .optional("lr", o.lr)
      .optional("adam_beta1", o.adam_beta1)
      .optional("adam_beta2", o.adam_beta2)
      .optional("adam_eps", o.adam_eps)
      .optional("weight_decay", o.weight_decay)
      .optional("clip_norm", o.clip_norm)
      .optional("label_smoothing", o.label_smoothing)
      .optional("halve_lr_on_plateau", o.halve_lr_on_plateau)
      .optional("max_halvings", o.max_halvings)
      .optional("max_len", o.max_len)
      .optional("log_interval", o.log_interval)
      .optional("max_steps", o.max_steps)
      .optional("checkpoint_interval", o.checkpoint_interval)
      .optional("threads", o.threads)
      .optional("seed", o.seed);
  f.finish();
  return o;
}

nlohmann::json TrainOptions::to_json() const {
  return {{"batch_size", batch_size}, {"max_epochs", max_epochs}, {"max_minutes", max_minutes}, {"lr", lr},
          {"adam_beta1", adam_beta1}, {"adam_beta2", adam_beta2}, {"adam_eps", adam_eps},
          {"weight_decay", weight_decay}, {"clip_norm", clip_norm}, {"label_smoothing", label_smoothing},
          {"halve_lr_on_plateau", halve_lr_on_plateau}, {"max_halvings", max_halvings}, {"max_len", max_len},
          {"log_interval", log_interval}, {"max_steps", max_steps}, {"checkpoint_interval", checkpoint_interval}, {"threads", threads}, {"seed", seed}};
}

std::pair<double, int64_t> evaluate_nll(Seq2SeqModel& model, const ParallelData& data, int batch_size, int max_len) {
  torch::NoGradGuard no_grad;
  model.eval();
  BatchOptions bo;
  bo.batch_size = batch_size;
  bo.max_len = max_len;
  bo.shuffle = false;
  BatchIterator it(data, bo);
  double nll = 0;
  int64_t tokens = 0;
  for (const auto& ids : it.epoch_plan(0)) {
    Batch b = it.make_batch(ids);
    auto v = label_smoothed_nll(model.forward(b.src, b.src_len, b.tgt_in), b.tgt_out, 0.0, Vocab::kPad);
    nll += v.nll_sum;
    tokens += v.tokens;
  }
  return {tokens ? nll / tokens : 0.0, tokens};
}

namespace {
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
}  // namespace

namespace {
std::atomic<int> g_stop_signal{0};
extern "C" void remember_signal(int sig) { g_stop_signal.store(sig); }
}  // namespace

TrainResult train_model(Seq2SeqModel& model, const nlohmann::json& config, const TrainOptions& o,
                        const ParallelData& train, const ParallelData& valid, const std::string& out_dir,
                        const std::string& hardware, Communicator& comm, bool resume) {
  // SIGTERM (SLURM preemption, scancel) and SIGUSR1 (SLURM --signal) checkpoint and stop the run
  std::signal(SIGTERM, remember_signal);
  std::signal(SIGUSR1, remember_signal);
  {  // every rank starts from rank 0's parameters
    std::vector<torch::Tensor> params;
    for (auto& p : model.parameters()) params.push_back(p.data());
    comm.broadcast(params, 0);
  }
  torch::manual_seed(o.seed + static_cast<uint64_t>(comm.rank()));  // dropout noise differs per rank
  BatchOptions bo;
  bo.batch_size = o.batch_size;
  bo.max_len = o.max_len;
  bo.seed = o.seed;
  BatchIterator batches(train, bo);
  if (batches.skipped() > 0 && comm.is_root())
    log_info("training: skipping " + std::to_string(batches.skipped()) + " pairs longer than " + std::to_string(o.max_len));

  torch::optim::Adam optimizer(model.parameters(), torch::optim::AdamOptions(o.lr)
                                                       .betas({o.adam_beta1, o.adam_beta2})
                                                       .eps(o.adam_eps)
                                                       .weight_decay(o.weight_decay));
  const std::string state_path = out_dir + "/state.pt";
  const std::string config_json = config.dump();
  TrainingCursor cur;
  cur.lr = o.lr;
  cur.best = std::numeric_limits<double>::infinity();
  if (resume && std::filesystem::exists(state_path) && !training_state_matches(state_path, config_json)) {
    // a state of another run (the config changed since): keep it aside, start afresh
    if (comm.is_root()) {
      log_warn(state_path + " belongs to another configuration or is unreadable; moved to state.pt.stale, starting afresh");
      std::filesystem::rename(state_path, state_path + ".stale");
    }
    comm.barrier();
  }
  if (resume && std::filesystem::exists(state_path)) {
    cur = load_training_state(state_path, model, optimizer, config_json);
    for (auto& group : optimizer.param_groups()) static_cast<torch::optim::AdamOptions&>(group.options()).lr(cur.lr);
    if (comm.is_root())
      log_info("resuming at epoch " + std::to_string(cur.epoch) + ", batch " + std::to_string(cur.batch_in_epoch) +
               ", update " + std::to_string(cur.steps));
  } else if (resume && comm.is_root()) {
    log_info("--resume: no " + state_path + " yet, starting from scratch");
  }
  auto save_state = [&]() {
    if (comm.is_root()) save_training_state(state_path, model, optimizer, cur, config_json);
  };
  std::ofstream metrics;
  if (comm.is_root()) metrics.open(out_dir + "/metrics.jsonl", std::ios::app);
  TrainResult result;
  const auto start = Clock::now();
  const double elapsed_before = cur.elapsed_seconds;
  auto elapsed = [&]() { return elapsed_before + seconds_since(start); };
  auto window_start = start;
  double window_loss = 0, window_nll = 0;
  int64_t window_tokens = 0;
  bool stop = false;
  for (; cur.epoch <= o.max_epochs && !stop; ++cur.epoch, cur.batch_in_epoch = 0) {
    model.train();
    auto plan = batches.epoch_plan(cur.epoch);
    Progress progress("epoch " + std::to_string(cur.epoch), plan.size(), 60.0);
    for (; cur.batch_in_epoch < static_cast<int64_t>(plan.size());) {
      const auto& batch_ids = plan[static_cast<std::size_t>(cur.batch_in_epoch)];
      std::vector<int64_t> ids;  // this rank's share of the batch
      for (std::size_t k = static_cast<std::size_t>(comm.rank()); k < batch_ids.size(); k += static_cast<std::size_t>(comm.size()))
        ids.push_back(batch_ids[k]);
      optimizer.zero_grad();
      LossValue v;
      if (!ids.empty()) {
        Batch b = batches.make_batch(ids);
        v = label_smoothed_nll(model.forward(b.src, b.src_len, b.tgt_in), b.tgt_out, o.label_smoothing, Vocab::kPad);
        v.loss.backward();  // summed over tokens; normalised by the global token count below
      }
      std::vector<torch::Tensor> grads;
      for (auto& p : model.parameters()) {
        if (!p.grad().defined()) p.mutable_grad() = torch::zeros_like(p);
        grads.push_back(p.grad());
      }
      const double batch_tokens = comm.allreduce_sum(static_cast<double>(v.tokens));
      comm.allreduce_sum(grads);
      for (auto& g : grads) g.div_(std::max(1.0, batch_tokens));
      double grad_norm = torch::nn::utils::clip_grad_norm_(model.parameters(), o.clip_norm);
      optimizer.step();
      ++cur.steps;
      ++cur.batch_in_epoch;
      window_loss += comm.allreduce_sum(v.loss.defined() ? v.loss.item<double>() : 0.0);
      window_nll += comm.allreduce_sum(v.nll_sum);
      window_tokens += static_cast<int64_t>(batch_tokens);
      cur.total_tokens += static_cast<int64_t>(batch_tokens);
      progress.advance();
      if (cur.steps % o.log_interval == 0 && comm.is_root()) {
        double secs = seconds_since(window_start);
        nlohmann::json m = {{"type", "train"}, {"step", cur.steps}, {"epoch", cur.epoch},
                            {"loss", window_loss / window_tokens}, {"ppl", std::exp(window_nll / window_tokens)},
                            {"lr", cur.lr}, {"grad_norm", grad_norm}, {"tgt_tokens_per_s", window_tokens / secs},
                            {"elapsed_s", elapsed()}};
        metrics << m.dump() << "\n" << std::flush;
        window_loss = window_nll = 0;
        window_tokens = 0;
        window_start = Clock::now();
      }
      cur.elapsed_seconds = elapsed();
      // signals, budgets: collective decisions, so that ranks never part ways
      const double signal = comm.allreduce_sum(static_cast<double>(g_stop_signal.load()));
      if (signal > 0) {
        save_state();
        comm.barrier();
        const int sig = g_stop_signal.load() > 0 ? g_stop_signal.load() : SIGTERM;
        if (comm.is_root()) log_info("signal " + std::to_string(sig) + ": training state saved to " + state_path);
        throw TrainingInterrupted(sig);
      }
      if (o.checkpoint_interval > 0 && cur.steps % o.checkpoint_interval == 0) save_state();
      bool budget = (o.max_minutes > 0 && elapsed() > o.max_minutes * 60) || (o.max_steps > 0 && cur.steps >= o.max_steps);
      if (comm.allreduce_sum(budget ? 1.0 : 0.0) > 0) {
        if (comm.is_root()) log_info("training: budget reached (time or steps) in epoch " + std::to_string(cur.epoch));
        stop = true;
        break;
      }
    }
    progress.finish();
    result.epochs = cur.epoch;
    auto [valid_nll, valid_tokens] = evaluate_nll(model, valid, o.batch_size, 1 << 20);
    double ppl = std::exp(valid_nll);
    if (comm.is_root()) {
      metrics << nlohmann::json{{"type", "valid"}, {"step", cur.steps}, {"epoch", cur.epoch}, {"valid_ppl", ppl},
                                {"valid_tokens", valid_tokens}, {"lr", cur.lr}, {"elapsed_s", elapsed()}}
                     .dump()
              << "\n"
              << std::flush;
      log_info("epoch " + std::to_string(cur.epoch) + ": valid ppl " + std::to_string(ppl) + ", lr " + std::to_string(cur.lr) +
               ", " + std::to_string(static_cast<int>(elapsed())) + " s");
    }
    if (ppl < cur.best) {
      cur.best = ppl;
      cur.best_epoch = cur.epoch;
      if (comm.is_root()) save_checkpoint(out_dir + "/best.pt", model, config);
    } else if (o.halve_lr_on_plateau) {
      if (++cur.halvings > o.max_halvings) {
        if (comm.is_root()) log_info("training: stopping after " + std::to_string(o.max_halvings) + " learning-rate halvings");
        stop = true;
      }
      cur.lr /= 2;
      for (auto& group : optimizer.param_groups()) static_cast<torch::optim::AdamOptions&>(group.options()).lr(cur.lr);
    }
    model.train();
    if (!stop) {  // the next epoch starts from here after a resume
      TrainingCursor next = cur;
      ++next.epoch;
      next.batch_in_epoch = 0;
      if (comm.is_root()) save_training_state(state_path, model, optimizer, next, config_json);
    }
  }
  if (comm.is_root()) save_checkpoint(out_dir + "/last.pt", model, config);
  result.steps = cur.steps;
  result.best_epoch = cur.best_epoch;
  result.best_valid_ppl = cur.best;
  result.seconds = elapsed();
  result.target_tokens_per_second = cur.total_tokens / std::max(1e-9, result.seconds);
  nlohmann::json summary = {{"best_valid_ppl", cur.best}, {"best_epoch", cur.best_epoch},
                            {"epochs", result.epochs},  {"steps", cur.steps},
                            {"train_seconds", result.seconds}, {"tgt_tokens_per_s", result.target_tokens_per_second},
                            {"hardware", hardware}, {"ranks", comm.size()}};
  if (comm.is_root()) write_file_atomically(out_dir + "/summary.json", summary.dump(2) + "\n");
  comm.barrier();
  return result;
}

}  // namespace synmt
