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
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/atomic_file.h"
#include "core/config.h"
#include "core/log.h"
#include "eval/bleu.h"
#include "preprocess/bpe.h"
#include "trainer/data/batches.h"
#include "trainer/decode/beam_search.h"
#include "trainer/comm/launcher.h"
#include "trainer/device.h"
#include "trainer/models/checkpoint.h"
#include "trainer/train/criterion.h"
#include "trainer/train/fused_adam.h"
#include "trainer/train/loss.h"
#include "trainer/loop/metrics_log.h"
#include "trainer/train/training_state.h"
#include "trainer/train/update_step.h"
#include "trainer/loop/validation_policy.h"
#include "core/special_tokens.h"

namespace synmt {

TrainOptions TrainOptions::from_json(const nlohmann::json& j) {
  TrainOptions o = options_from_json<TrainOptions>(j, "train");
  o.schedule.validate();
  if (o.keep_best == KeepBest::kBleu) o.valid_bleu = true;
  if (o.update_freq < 1) throw ConfigError("train.update_freq must be >= 1");
  if (o.batch_size < 1 || o.max_tokens < 0) throw ConfigError("train.batch_size must be >= 1 and max_tokens >= 0");
  if (o.label_smoothing < 0 || o.label_smoothing >= 1) throw ConfigError("train.label_smoothing must be in [0, 1)");
  if (o.valid_per_epoch < 1) throw ConfigError("train.valid_per_epoch must be >= 1");
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
  const torch::Device device = module_device(model);
  for (const auto& ids : it.epoch_plan(0)) {
    Batch b = to_device(it.make_batch(ids), device);
    check_required_features(model, b.source, "validation");
    auto v = label_smoothed_nll(model.forward(b.source, b.tgt_in).log_probs, b.tgt_out, 0.0, special::kPad);
    nll += v.nll_sum;
    tokens += v.tokens;
  }
  return {tokens ? nll / tokens : 0.0, tokens};
}


double evaluate_greedy_bleu(Seq2SeqModel& model, const ParallelData& data, const Vocab& tgt_vocab, int batch_size,
                            std::vector<std::string>* hypotheses) {
  torch::NoGradGuard no_grad;
  model.eval();
  std::vector<std::string> hyps, refs;
  SearchOptions greedy;
  greedy.beam_size = 1;
  const torch::Device device = module_device(model);
  for (std::size_t s = 0; s < data.size(); s += static_cast<std::size_t>(batch_size)) {
    std::vector<int64_t> ids;
    for (std::size_t i = s; i < std::min(data.size(), s + static_cast<std::size_t>(batch_size)); ++i) {
      ids.push_back(static_cast<int64_t>(i));
      refs.push_back(remove_bpe(tgt_vocab.decode(std::vector<int32_t>(data.tgt_tokens.begin() + data.tgt_offsets[i],
                                                                           data.tgt_tokens.begin() + data.tgt_offsets[i + 1]))));
    }
    // the source side with every feature the dataset carries: a syntax model is validated as it
    // will be decoded
    Batch batch = to_device(make_data_batch(data, ids), device);
    check_required_features(model, batch.source, "validation BLEU");
    for (const auto& h : greedy_search(model, batch, greedy)) hyps.push_back(remove_bpe(tgt_vocab.decode(h)));
  }
  eval::BleuOptions bo;
  bo.tokenize = "none";
  const double score = eval::Bleu(bo).corpus_score(hyps, {refs}).score;
  if (hypotheses) *hypotheses = std::move(hyps);
  return score;
}

namespace {
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::atomic<int> g_stop_signal{0};
extern "C" void remember_signal(int sig) { g_stop_signal.store(sig); }

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

void set_lr(torch::optim::Optimizer& optimizer, double lr) {
  for (auto& group : optimizer.param_groups()) group.options().set_lr(lr);
}

// snapshot.<k>.pt: the parameters at the k-th validation (epoch ends, or every valid_interval updates)
std::string snapshot_path(const std::string& out_dir, int validation) {
  return out_dir + "/snapshot." + std::to_string(validation) + ".pt";
}
}  // namespace

TrainResult train_model(Seq2SeqModel& model, const nlohmann::json& config, const TrainOptions& o,
                        const ParallelData& train, const ParallelData& valid, const std::string& out_dir,
                        const std::string& hardware, Communicator& comm, bool resume, const Vocab* tgt_vocab) {
  if (o.valid_bleu && !tgt_vocab) throw ConfigError("train.valid_bleu needs the target vocabulary");
  const torch::Device device = resolve_device(o.device, launcher_environment().local_rank);
  model.to(device);  // before the optimizer exists: its state is created next to the parameters
  const bool bf16 = o.precision == Precision::kBf16;
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
  bo.max_tokens = o.max_tokens;
  bo.max_len = o.max_len;
  bo.seed = o.seed;
  BatchIterator batches(train, bo);
  if (batches.skipped() > 0 && comm.is_root())
    log_info("training: skipping " + std::to_string(batches.skipped()) + " pairs longer than " + std::to_string(o.max_len));

  auto optimizer = make_optimizer(model, o);
  CriterionOptions co{o.label_smoothing, o.aux_loss_weights};
  if (o.criterion == CriterionKind::kBlackout) {  // q from the training targets (every sentence also ends in </s>)
    std::vector<int64_t> counts(static_cast<std::size_t>(config["model"]["options"].value("tgt_vocab", int64_t{0})), 0);
    for (auto t : train.tgt_tokens)
      if (t >= 0 && static_cast<std::size_t>(t) < counts.size()) ++counts[static_cast<std::size_t>(t)];
    if (counts.size() > static_cast<std::size_t>(special::kEos)) counts[special::kEos] += static_cast<int64_t>(train.size());
    co.blackout = true;
    co.blackout_options.samples = o.blackout_samples;
    co.blackout_options.alpha = o.blackout_alpha;
    co.noise = unigram_noise(counts, o.blackout_alpha);
  }
  const Criterion criterion(co);
  UpdateStep update_step(model, batches, criterion, ForwardRequest{/*log_probs=*/!co.blackout, /*analysis=*/false}, comm, device,
                         UpdateStepOptions{o.update_freq, o.clip_norm, bf16, parse_loss_normalisation(o.loss_normalisation)});
  const std::string state_path = out_dir + "/state.pt";
  const std::string config_json = config.dump();
  TrainingCursor cur;
  cur.lr = o.lr;
  cur.best = std::numeric_limits<double>::infinity();
  if (resume && std::filesystem::exists(state_path) && !training_state_matches(state_path, config_json)) {
    // a state of another run (the config changed since): keep it aside, start afresh
    if (comm.is_root()) {
      log_warn(state_path + " belongs to another configuration; moved to state.pt.stale, starting afresh");
      std::filesystem::rename(state_path, state_path + ".stale");
    }
    comm.barrier();
  }
  if (resume && std::filesystem::exists(state_path)) {
    cur = load_training_state(state_path, model, *optimizer, config_json, comm.rank(), comm.size());
    if (comm.is_root())
      log_info("resuming at epoch " + std::to_string(cur.epoch) + ", batch " + std::to_string(cur.batch_in_epoch) +
               ", update " + std::to_string(cur.steps));
  } else if (resume && comm.is_root()) {
    log_info("--resume: no " + state_path + " yet, starting from scratch");
  }
  // Every rank's RNG state goes into the training state (a collective: all ranks call it at the
  // same points), so that each rank resumes its own dropout stream.
  auto gather_rng_states = [&]() {
    auto own = at::detail::getDefaultCPUGenerator().get_state();
    if (device.is_cuda())  // dropout on a GPU draws from its generator: its state follows the CPU one's
      own = torch::cat({own, at::globalContext().defaultGenerator(device).get_state()});
    auto all = torch::zeros({comm.size(), own.numel()}, torch::kFloat32);
    all[comm.rank()].copy_(own.to(torch::kFloat32));  // bytes are exact in float32
    std::vector<torch::Tensor> bucket{all};
    comm.allreduce_sum(bucket);
    return bucket[0].to(torch::kUInt8);
  };
  auto save_state_of = [&](const TrainingCursor& c) {
    auto rngs = gather_rng_states();
    if (comm.is_root()) save_training_state(state_path, model, *optimizer, c, config_json, rngs);
  };
  auto save_state = [&]() { save_state_of(cur); };
  MetricsLog metrics = comm.is_root() ? MetricsLog(out_dir + "/metrics.jsonl", /*append=*/true) : MetricsLog();
  auto write_metrics = [&](const nlohmann::json& line) { metrics.write(line); };
  TrainResult result;
  const auto start = Clock::now();
  const double elapsed_before = cur.elapsed_seconds;
  auto elapsed = [&]() { return elapsed_before + seconds_since(start); };
  auto window_start = start;
  double window_loss = 0, window_nll = 0;
  std::map<std::string, double> window_aux;  // each auxiliary loss, summed over the log window
  int64_t window_tokens = 0;
  double lr_now = cur.lr;
  // Validation (at epoch ends, and every valid_interval updates when set: LGP checks twice an
  // epoch): perplexity, optionally greedy BLEU, keep-best, plateau halving, patience, snapshots for
  // averaging. Every rank computes it on the same parameters, so every rank decides the same.
  // Returns true when training should stop.
  const ValidationPolicy policy{o.patience, o.halve_lr_on_plateau, parse_halving_rule(o.halve_lr_when), o.max_halvings};
  auto validate = [&]() {
    cur.last_validation_step = cur.steps;
    ++cur.validations;
    auto [valid_nll, valid_tokens] = evaluate_nll(model, valid, o.batch_size, 1 << 20);
    const double ppl = std::exp(valid_nll);
    std::vector<std::string> valid_hyps;
    const double bleu = o.valid_bleu ? evaluate_greedy_bleu(model, valid, *tgt_vocab, 64, &valid_hyps) : 0.0;
    const double value = o.keep_best == KeepBest::kBleu ? -bleu : ppl;
    if (comm.is_root()) {
      nlohmann::json m = {{"type", "valid"}, {"step", cur.steps}, {"epoch", cur.epoch}, {"valid_ppl", ppl},
                          {"valid_tokens", valid_tokens}, {"lr", lr_now}, {"elapsed_s", elapsed()}};
      if (o.valid_bleu) m["valid_bleu"] = bleu;
      write_metrics(m);
      log_info("epoch " + std::to_string(cur.epoch) + ", update " + std::to_string(cur.steps) + ": valid ppl " +
               std::to_string(ppl) + (o.valid_bleu ? ", valid BLEU " + std::to_string(bleu) : std::string()) + ", lr " +
               std::to_string(lr_now) + ", " + std::to_string(static_cast<int>(elapsed())) + " s");
    }
    const ValidationDecision decision = apply_validation(policy, cur, value, ppl, bleu);
    if (decision.improved) {
      if (comm.is_root()) {
        save_checkpoint(out_dir + "/best.pt", model, config);
        if (o.valid_bleu) {  // what best.pt translates in-process: a reloaded checkpoint must give the same
          AtomicFile hyp(out_dir + "/best.valid.hyp");
          for (const auto& h : valid_hyps) hyp.write_line(h);
          hyp.commit();
        }
      }
    }
    if (comm.is_root())
      for (const auto& reason : decision.stop_reasons) log_info(reason);
    if (o.average_last > 0 && comm.is_root()) {
      save_checkpoint(snapshot_path(out_dir, cur.validations), model, config);
      std::filesystem::remove(snapshot_path(out_dir, cur.validations - o.average_last));
    }
    model.train();
    return decision.stop();
  };
  bool stop = false;
  for (; cur.epoch <= o.max_epochs && !stop; ++cur.epoch, cur.batch_in_epoch = 0) {
    model.train();
    auto plan = batches.epoch_plan(cur.epoch);
    Progress progress("epoch " + std::to_string(cur.epoch), plan.size(), 60.0);
    for (; cur.batch_in_epoch < static_cast<int64_t>(plan.size());) {
      // a run resumed from a state saved at its last update (killed before it finished) must not
      // take one more: the budget is checked before every update too, not only after
      if (o.max_steps > 0 && cur.steps >= o.max_steps) {
        stop = true;
        break;
      }
      TrainingContext context;
      context.update = cur.steps;
      context.epoch = cur.epoch;
      context.epoch_fraction = static_cast<double>(cur.batch_in_epoch) / static_cast<double>(plan.size());
      context.updates_per_epoch = (static_cast<int64_t>(plan.size()) + o.update_freq - 1) / o.update_freq;
      model.set_training_context(context);
      const UpdateTotals update = update_step.run(plan, cur.batch_in_epoch, *optimizer, /*check_features=*/cur.steps == 0);
      const int64_t consumed = update.batches;
      const double batch_tokens = update.target_tokens, grad_norm = update.grad_norm, loss_sum = update.loss_sum;
      // the part of the epoch this update ends in (valid_per_epoch: validate when it changes)
      const auto part_of = [&](int64_t b) { return b * o.valid_per_epoch / static_cast<int64_t>(plan.size()); };
      const bool part_done = o.valid_per_epoch > 1 && part_of(cur.batch_in_epoch + consumed) > part_of(cur.batch_in_epoch) &&
                             cur.batch_in_epoch + consumed < static_cast<int64_t>(plan.size());
      cur.batch_in_epoch += consumed;
      if (!std::isfinite(loss_sum) || !std::isfinite(grad_norm)) {
        // every rank sees the same summed values, so all of them skip together
        ++cur.skipped_updates;
        if (comm.is_root()) {
          log_warn("update " + std::to_string(cur.steps + 1) + ": non-finite loss or gradient norm; update skipped (" +
                   std::to_string(cur.skipped_updates) + " so far)");
          write_metrics({{"type", "skipped_update"}, {"step", cur.steps + 1}, {"epoch", cur.epoch},
                         {"skipped_updates", cur.skipped_updates}});
        }
        optimizer->zero_grad();
        if (cur.skipped_updates > o.max_skipped_updates)
          throw TrainingFailed("stopping: " + std::to_string(cur.skipped_updates) +
                               " updates had a non-finite loss or gradient (train.max_skipped_updates = " +
                               std::to_string(o.max_skipped_updates) + "); lower the learning rate or check the data");
        progress.advance(static_cast<std::size_t>(consumed));
        continue;
      }
      lr_now = scheduled_lr(o.schedule, cur.lr, cur.steps + 1, cur.epoch);
      set_lr(*optimizer, lr_now);
      optimizer->step();
      ++cur.steps;
      window_loss += loss_sum;
      window_nll += comm.allreduce_sum(update.local_nll_sum);
      // every rank runs the same model, so every rank has the same term names (sorted by the map)
      for (const auto& [name, value] : update.local_aux) window_aux[name] += comm.allreduce_sum(value);
      window_tokens += static_cast<int64_t>(batch_tokens);
      cur.total_tokens += static_cast<int64_t>(batch_tokens);
      progress.advance(static_cast<std::size_t>(consumed));
      if (cur.steps % o.log_interval == 0 && comm.is_root()) {
        double secs = seconds_since(window_start);
        char detail[160];
        std::snprintf(detail, sizeof detail, "loss %.3f lr %.2e %.0f tgt tok/s", window_loss / window_tokens, lr_now,
                      window_tokens / secs);
        std::string terms = detail;
        nlohmann::json m = {{"type", "train"}, {"step", cur.steps}, {"epoch", cur.epoch},
                            {"loss", window_loss / window_tokens}, {"nll", window_nll / window_tokens},
                            {"ppl", std::exp(window_nll / window_tokens)},
                            {"lr", lr_now}, {"grad_norm", grad_norm}, {"tgt_tokens_per_s", window_tokens / secs},
                            {"elapsed_s", elapsed()}};
        for (auto& [name, sum] : window_aux) {  // per target token, like the loss
          std::snprintf(detail, sizeof detail, " %s %.3f", name.c_str(), sum / window_tokens);
          terms += detail;
          m["aux_" + name] = sum / window_tokens;
          sum = 0;
        }
        progress.set_detail(terms);
        write_metrics(m);
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
      if (((o.valid_interval > 0 && cur.steps % o.valid_interval == 0) || part_done) && validate()) {
        stop = true;
        break;
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
    if (cur.last_validation_step != cur.steps && validate()) stop = true;
    model.train();
    if (!stop) {  // the next epoch starts from here after a resume
      TrainingCursor next = cur;
      ++next.epoch;
      next.batch_in_epoch = 0;
      save_state_of(next);
    }
  }
  if (comm.is_root()) {
    save_checkpoint(out_dir + "/last.pt", model, config);
    if (o.average_last > 0) {
      std::vector<std::string> snapshots;
      for (int v = std::max(1, cur.validations - o.average_last + 1); v <= cur.validations; ++v)
        if (std::filesystem::exists(snapshot_path(out_dir, v))) snapshots.push_back(snapshot_path(out_dir, v));
      if (!snapshots.empty()) average_checkpoints(snapshots, out_dir + "/averaged.pt");
      log_info("averaged.pt: mean of the last " + std::to_string(snapshots.size()) + " validation-time snapshots");
    }
  }
  result.steps = cur.steps;
  result.best_epoch = cur.best_epoch;
  result.best_valid_ppl = cur.best_ppl;
  result.best_valid_bleu = cur.best_bleu;
  result.seconds = elapsed();
  result.target_tokens_per_second = cur.total_tokens / std::max(1e-9, result.seconds);
  nlohmann::json summary = {{"best_valid_ppl", cur.best_ppl}, {"best_epoch", cur.best_epoch},
                            {"keep_best", enum_name(o.keep_best)},       {"epochs", result.epochs},
                            {"steps", cur.steps},             {"skipped_updates", cur.skipped_updates},
                            {"train_seconds", result.seconds}, {"tgt_tokens_per_s", result.target_tokens_per_second},
                            {"hardware", hardware},           {"ranks", comm.size()}};
  if (o.valid_bleu) summary["best_valid_bleu"] = cur.best_bleu;
  if (comm.is_root()) write_file_atomically(out_dir + "/summary.json", summary.dump(2) + "\n");
  comm.barrier();
  return result;
}

}  // namespace synmt
