// The training loop's options checked against closed forms and in short in-process runs:
// schedules, token batches, non-finite-update skipping, early stopping, checkpoint averaging,
// ensembles.
#include <gtest/gtest.h>

#include <ATen/CPUGeneratorImpl.h>
#include <torch/optim/sgd.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <stdexcept>

#include "core/build_commit.h"
#include "core/error.h"
#include "core/special_tokens.h"
#include "trainer/data/batches.h"
#include "trainer/decode/beam_search.h"
#include "trainer/decode/ensemble.h"
#include "trainer/comm/communicator.h"
#include "trainer/models/registry.h"
#include "trainer/models/checkpoint.h"
#include "trainer/train/lr_schedule.h"
#include "trainer/train/criterion.h"
#include "trainer/train/trainer.h"
#include "trainer/train/training_state.h"
#include "trainer/train/update_step.h"
#include "trainer/loop/validation_policy.h"
#include "tests/test_util.h"
#include "tests/trainer/tiny_models.h"

namespace {
nlohmann::json tiny(const std::string& arch) { return synmt::test::tiny_arch(arch); }
synmt::ParallelData copy_task(int n) { return synmt::test::copy_task(n, 7); }


std::string fresh_dir(const std::string& name) {
  std::string dir = std::string(SYNMT_TEST_TMP) + "/" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

synmt::TrainResult run(synmt::Seq2SeqModel& model, const nlohmann::json& train_json, const std::string& dir) {
  auto options = synmt::TrainOptions::from_json(train_json);
  auto data = copy_task(40);
  auto comm = synmt::make_communicator("single");
  nlohmann::json config = {{"model", model.describe()}, {"train", options.to_json()}, {"vocab", {{"src_sha256", "s"}, {"tgt_sha256", "t"}}}};
  return synmt::train_model(model, config, options, data, data, dir, "test", *comm);
}
}  // namespace

TEST(LrSchedule, InverseSqrtMatchesFairseq) {
  synmt::LrSchedule s;
  s.kind = "inverse_sqrt";
  s.warmup_steps = 4000;
  s.warmup_init_lr = 1e-7;
  const double lr = 7e-4;
  EXPECT_NEAR(synmt::scheduled_lr(s, lr, 1, 1), 1e-7 + (lr - 1e-7) / 4000, 1e-15);
  EXPECT_NEAR(synmt::scheduled_lr(s, lr, 2000, 1), 1e-7 + (lr - 1e-7) * 0.5, 1e-15);
  EXPECT_DOUBLE_EQ(synmt::scheduled_lr(s, lr, 4000, 1), lr);
  EXPECT_NEAR(synmt::scheduled_lr(s, lr, 16000, 3), lr * 0.5, 1e-15);  // sqrt(4000/16000)
  EXPECT_NEAR(synmt::scheduled_lr(s, lr, 100000, 9), lr * std::sqrt(0.04), 1e-15);
}

TEST(LrSchedule, ExponentialDecayByStepsAndEpochs) {
  synmt::LrSchedule s;
  s.kind = "exponential";
  s.decay_rate = 0.5;
  s.decay_every = 3;
  s.decay_unit = "epochs";
  EXPECT_DOUBLE_EQ(synmt::scheduled_lr(s, 1.0, 999, 1), 1.0);
  EXPECT_DOUBLE_EQ(synmt::scheduled_lr(s, 1.0, 999, 3), 1.0);
  EXPECT_DOUBLE_EQ(synmt::scheduled_lr(s, 1.0, 999, 4), 0.5);
  EXPECT_DOUBLE_EQ(synmt::scheduled_lr(s, 1.0, 999, 10), 0.125);
  s.decay_unit = "steps";
  s.decay_every = 100;
  s.decay_rate = 0.9;
  EXPECT_DOUBLE_EQ(synmt::scheduled_lr(s, 2.0, 99, 7), 2.0);
  EXPECT_NEAR(synmt::scheduled_lr(s, 2.0, 250, 7), 2.0 * 0.81, 1e-12);
}

TEST(LrSchedule, ConstantWithWarmupAndValidation) {
  synmt::LrSchedule s;
  s.warmup_steps = 10;
  EXPECT_DOUBLE_EQ(synmt::scheduled_lr(s, 1.0, 5, 1), 0.5);
  EXPECT_DOUBLE_EQ(synmt::scheduled_lr(s, 1.0, 10, 1), 1.0);
  EXPECT_DOUBLE_EQ(synmt::scheduled_lr(s, 1.0, 5000, 9), 1.0);
  s.kind = "cosine";
  EXPECT_THROW(s.validate(), synmt::ConfigError);
  EXPECT_THROW(synmt::TrainOptions::from_json({{"lr_schedule", "inverse_sqrt"}}), synmt::ConfigError);  // no warm-up
  EXPECT_THROW(synmt::TrainOptions::from_json({{"optimizer", "adagrad"}}), synmt::ConfigError);
  EXPECT_THROW(synmt::TrainOptions::from_json({{"keep_best", "loss"}}), synmt::ConfigError);
  EXPECT_TRUE(synmt::TrainOptions::from_json({{"keep_best", "bleu"}}).valid_bleu);
}

TEST(Batches, TokenBatchesRespectTheBudgetAndCoverEverySentenceOnce) {
  auto data = copy_task(300);
  synmt::BatchOptions bo;
  bo.max_tokens = 40;
  synmt::BatchIterator it(data, bo);
  for (int epoch : {1, 2}) {
    std::multiset<int64_t> seen;
    for (const auto& ids : it.epoch_plan(epoch)) {
      auto b = it.make_batch(ids);
      const int64_t padded = std::max(b.source.tokens.size(1), b.tgt_in.size(1)) * b.source.tokens.size(0);
      EXPECT_LE(padded, 40);
      seen.insert(ids.begin(), ids.end());
    }
    EXPECT_EQ(seen.size(), 300u);
    EXPECT_EQ(std::set<int64_t>(seen.begin(), seen.end()).size(), 300u);
  }
  EXPECT_NE(it.epoch_plan(1), it.epoch_plan(2));  // reshuffled per epoch
  EXPECT_EQ(it.epoch_plan(1), it.epoch_plan(1));  // seeded
}

// The two halving rules on a scripted validation curve (lower is better). "rises" halves where a
// value is worse than the one before (Tran & Bisk §5.3, Hashimoto & Tsuruoka §4.2), "no_new_best"
// wherever no new best is reached; both stop at the halving that makes max_halvings (SA-NMT: "we
// stop training after decaying the learning rate five times"). The code before this test had only
// no_new_best and stopped one halving late.
TEST(ValidationPolicy, HalvingRulesOnAScriptedCurve) {
  const std::vector<double> curve{10, 9, 9.5, 9.2, 8, 8.5, 8.6, 8.7, 7, 7.5, 7.4, 7.6, 7.7};
  auto replay = [&](synmt::HalvingRule rule, int max_halvings) {
    synmt::ValidationPolicy policy{0, true, rule, max_halvings};
    synmt::TrainingCursor cur;
    cur.best = std::numeric_limits<double>::infinity();
    cur.lr = 1.0;
    std::vector<int> halved_at;
    int stopped_at = -1;
    for (std::size_t k = 0; k < curve.size() && stopped_at < 0; ++k) {
      const int before = cur.halvings;
      auto d = synmt::apply_validation(policy, cur, curve[k], curve[k], 0);
      EXPECT_EQ(d.improved, k == 0 || curve[k] < *std::min_element(curve.begin(), curve.begin() + static_cast<long>(k)));
      if (cur.halvings > before) halved_at.push_back(static_cast<int>(k));
      if (d.stop()) stopped_at = static_cast<int>(k);
    }
    EXPECT_DOUBLE_EQ(cur.lr, std::pow(0.5, cur.halvings));
    return std::make_pair(halved_at, stopped_at);
  };
  // rises: 9.5 > 9, 8.5 > 8, 8.6 > 8.5, 8.7 > 8.6, 7.5 > 7, 7.6 > 7.4, 7.7 > 7.6 (not 9.2, 7.4: lower than the last)
  auto [rises, rises_stop] = replay(synmt::HalvingRule::kRises, 5);
  EXPECT_EQ(rises, (std::vector<int>{2, 5, 6, 7, 9}));
  EXPECT_EQ(rises_stop, 9);  // at the fifth halving
  // no new best: every value after the first that is not below 9, 8 or 7
  auto [plateau, plateau_stop] = replay(synmt::HalvingRule::kNoNewBest, 5);
  EXPECT_EQ(plateau, (std::vector<int>{2, 3, 5, 6, 7}));
  EXPECT_EQ(plateau_stop, 7);
  auto [never, never_stop] = replay(synmt::HalvingRule::kRises, 0);  // 0: halvings never stop the run
  EXPECT_EQ(never, (std::vector<int>{2, 5, 6, 7, 9, 11, 12}));
  EXPECT_EQ(never_stop, -1);
  EXPECT_THROW(synmt::parse_halving_rule("rise"), synmt::ConfigError);
}

// The loss normalisation on one update with plain SGD and no clipping: the gradient is the summed
// loss's gradient divided by the batch's target tokens or by its sentences, so the two differ by
// exactly tokens / sentences (a wrong or missing division would break the ratio or the absolute
// value, which is checked against a reference gradient computed here).
TEST(UpdateStep, LossIsDividedByTokensOrSentences) {
  auto data = copy_task(12);
  synmt::BatchOptions bo;
  bo.batch_size = 5;
  bo.shuffle = false;
  synmt::BatchIterator batches(data, bo);
  const std::vector<std::vector<int64_t>> plan{{0, 3, 5, 8, 11}};
  synmt::Criterion criterion(synmt::CriterionOptions{});
  auto comm = synmt::make_communicator("single");
  // the update's gradient, and the reference: the summed loss of the same batches, by autograd
  auto gradients = [&](const std::vector<std::vector<int64_t>>& batches_of_update, int update_freq,
                       synmt::LossNormalisation by, synmt::UpdateTotals* totals) {
    torch::manual_seed(7);
    auto model = synmt::create_model(tiny("rnn_tiny"));
    model->eval();  // no dropout: the same function for every call
    torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.0));
    synmt::UpdateStep step(*model, batches, criterion, synmt::ForwardRequest{true, false}, *comm, torch::Device(torch::kCPU),
                           synmt::UpdateStepOptions{update_freq, 0.0, false, by});
    *totals = step.run(batches_of_update, 0, sgd, false);
    std::vector<torch::Tensor> g;
    for (auto& p : model->parameters()) g.push_back(p.grad().clone());
    model->zero_grad();
    for (const auto& ids : batches_of_update) {
      auto b = batches.make_batch(ids);
      criterion(model->forward(b.source, b.tgt_in), b.tgt_out, 0).objective.backward();
    }
    std::vector<torch::Tensor> summed;
    for (auto& p : model->parameters()) summed.push_back(p.grad().clone());
    return std::make_pair(g, summed);
  };
  // the divisor counted here from the data: each target's words plus its </s>
  auto target_tokens = [&](const std::vector<std::vector<int64_t>>& batches_of_update) {
    double n = 0;
    for (const auto& ids : batches_of_update)
      for (auto i : ids) n += static_cast<double>(data.tgt_offsets[i + 1] - data.tgt_offsets[i] + 1);
    return n;
  };
  synmt::UpdateTotals by_tokens, by_sentences;
  auto [g_tok, summed] = gradients(plan, 1, synmt::LossNormalisation::kTargetTokens, &by_tokens);
  auto [g_sent, summed_again] = gradients(plan, 1, synmt::LossNormalisation::kSentences, &by_sentences);
  EXPECT_EQ(by_sentences.sentences, 5.0);
  EXPECT_EQ(by_tokens.target_tokens, target_tokens(plan));
  for (std::size_t k = 0; k < g_tok.size(); ++k) {
    EXPECT_TRUE(torch::allclose(g_tok[k] * target_tokens(plan), summed[k], 1e-4, 1e-6)) << k;
    EXPECT_TRUE(torch::allclose(g_sent[k] * 5.0, summed[k], 1e-4, 1e-6)) << k;
  }
  // update_freq 2: two batches, one update, one divisor (both batches' tokens together)
  const std::vector<std::vector<int64_t>> two{{0, 3, 5}, {8, 11}};
  synmt::UpdateTotals accumulated;
  auto [g_two, summed_two] = gradients(two, 2, synmt::LossNormalisation::kTargetTokens, &accumulated);
  EXPECT_EQ(accumulated.target_tokens, target_tokens(two));
  for (std::size_t k = 0; k < g_two.size(); ++k)
    EXPECT_TRUE(torch::allclose(g_two[k] * target_tokens(two), summed_two[k], 1e-4, 1e-6)) << k;
  EXPECT_THROW(synmt::parse_loss_normalisation("tokens"), synmt::ConfigError);
}

// The optimizer the options name, with their momentum and weight decay: two SGD steps under given
// gradients follow the closed form (PyTorch's SGD: d = g + wd p; v = d, then v = mu v + d; p -= lr v).
TEST(Optimizer, SgdTakesTheOptionsMomentumAndWeightDecay) {
  torch::manual_seed(0);
  auto model = synmt::create_model(tiny("rnn_tiny"));
  const double lr = 0.1, mu = 0.9, wd = 0.01;
  auto optimizer = synmt::make_optimizer(
      *model, synmt::TrainOptions::from_json({{"optimizer", "sgd"}, {"lr", lr}, {"momentum", mu}, {"weight_decay", wd}}));
  auto p = model->parameters()[0];
  for (auto& q : model->parameters()) q.mutable_grad() = torch::zeros_like(q);
  const auto p0 = p.detach().clone(), g1 = torch::randn_like(p0), g2 = torch::randn_like(p0);
  p.mutable_grad() = g1.clone();
  optimizer->step();
  const auto v1 = g1 + wd * p0, p1 = p0 - lr * v1;
  EXPECT_TRUE(torch::allclose(p.detach(), p1, 1e-5, 1e-7));
  p.mutable_grad() = g2.clone();
  optimizer->step();
  const auto v2 = mu * v1 + g2 + wd * p1, p2 = p1 - lr * v2;
  EXPECT_TRUE(torch::allclose(p.detach(), p2, 1e-5, 1e-7));
  EXPECT_FALSE(torch::allclose(p2, p1 - lr * (g2 + wd * p1), 1e-5, 1e-7));  // the momentum term is not negligible
}

TEST(Training, NonFiniteUpdatesAreSkippedThenTheRunStops) {
  torch::manual_seed(0);
  auto model = synmt::create_model(tiny("rnn_tiny"));
  {
    torch::NoGradGuard no_grad;
    model->parameters()[3].fill_(std::nan(""));
  }
  auto before = model->parameters()[0].clone();
  const auto dir = fresh_dir("nan_run");
  try {
    run(*model, {{"batch_size", 8}, {"max_epochs", 3}, {"max_skipped_updates", 2}, {"log_interval", 1}}, dir);
    FAIL() << "expected TrainingFailed";
  } catch (const synmt::TrainingFailed& e) {
    EXPECT_NE(std::string(e.what()).find("3 updates had a non-finite loss"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(torch::equal(before, model->parameters()[0]));  // no skipped update touched the weights
}

TEST(Training, EarlyStoppingAfterPatienceValidationsWithoutImprovement) {
  torch::manual_seed(0);
  auto model = synmt::create_model(tiny("rnn_tiny"));
  // lr 0: the validation perplexity never improves after the first epoch
  auto r = run(*model, {{"batch_size", 8}, {"max_epochs", 10}, {"lr", 0.0}, {"halve_lr_on_plateau", false}, {"patience", 2}},
               fresh_dir("patience_run"));
  EXPECT_EQ(r.epochs, 3);
  EXPECT_EQ(r.best_epoch, 1);
}

TEST(Training, SgdMomentumTransformerWithAveragingAndValidationBleu) {
  torch::manual_seed(0);
  auto model = synmt::create_model(tiny("transformer_tiny"));
  const auto dir = fresh_dir("avg_run");
  auto options = synmt::TrainOptions::from_json({{"max_tokens", 60}, {"update_freq", 2}, {"max_epochs", 3},
                                                 {"optimizer", "sgd"}, {"momentum", 0.9}, {"lr", 0.05},
                                                 {"weight_decay", 1e-6}, {"average_last", 2}, {"keep_best", "bleu"},
                                                 {"halve_lr_on_plateau", false}, {"valid_interval", 2}});
  auto data = copy_task(40);
  auto comm = synmt::make_communicator("single");
  std::vector<std::pair<std::string, int64_t>> counts;
  for (int t = 4; t < 20; ++t) counts.emplace_back("w" + std::to_string(t), 10);
  synmt::Vocab vocab = synmt::Vocab::build(counts, {});
  ASSERT_EQ(vocab.size(), 20u);
  nlohmann::json config = {{"model", model->describe()}, {"train", options.to_json()}, {"vocab", {{"src_sha256", "s"}, {"tgt_sha256", "t"}}}};
  auto r = synmt::train_model(*model, config, options, data, data, dir, "test", *comm, false, &vocab);
  EXPECT_EQ(r.epochs, 3);
  EXPECT_GE(r.best_valid_bleu, 0.0);
  // validations every 3 updates and at epoch ends; averaged.pt = mean of the last two snapshots
  int last = 0;
  for (int k = 1; k < 200; ++k)
    if (std::filesystem::exists(dir + "/snapshot." + std::to_string(k) + ".pt")) last = k;
  ASSERT_GT(last, 3);  // more validations than epochs
  auto a = synmt::load_checkpoint(dir + "/snapshot." + std::to_string(last - 1) + ".pt");
  auto b = synmt::load_checkpoint(dir + "/snapshot." + std::to_string(last) + ".pt");
  auto avg = synmt::load_checkpoint(dir + "/averaged.pt");
  EXPECT_FALSE(std::filesystem::exists(dir + "/snapshot." + std::to_string(last - 2) + ".pt"));
  auto pa = a.model->named_parameters(), pb = b.model->named_parameters(), pv = avg.model->named_parameters();
  for (const auto& p : pv) EXPECT_TRUE(torch::allclose(p.value(), (pa[p.key()] + pb[p.key()]) / 2, 1e-6, 1e-7)) << p.key();
  // a checkpoint of another model cannot be averaged in
  auto other = synmt::create_model(tiny("rnn_tiny"));
  synmt::save_checkpoint(dir + "/other.pt", *other, {{"model", tiny("rnn_tiny")}, {"vocab", {{"src_sha256", "s"}, {"tgt_sha256", "t"}}}});
  EXPECT_THROW(synmt::average_checkpoints({dir + "/snapshot." + std::to_string(last) + ".pt", dir + "/other.pt"}, dir + "/x.pt"),
               synmt::InputError);
}

// keep_best: bleu keeps the parameters of the validation with the highest greedy BLEU, not the
// lowest perplexity: every validation is kept as a snapshot (average_last larger than their count),
// and best.pt must equal the snapshot of the first validation with the maximum BLEU. The run is one
// where the best-BLEU and the best-perplexity validations differ, so keeping by perplexity (or
// never updating best.pt) fails the test.
TEST(Training, KeepBestBleuKeepsTheParametersOfTheBestValidationBleu) {
  torch::manual_seed(0);
  auto model = synmt::create_model(tiny("transformer_tiny"));
  const auto dir = fresh_dir("keep_best_bleu");
  auto options = synmt::TrainOptions::from_json({{"max_tokens", 60}, {"max_epochs", 4}, {"lr", 0.002}, {"keep_best", "bleu"},
                                                 {"halve_lr_on_plateau", false}, {"valid_interval", 2}, {"average_last", 1000},
                                                 {"log_interval", 1000}});
  auto data = copy_task(40);
  auto comm = synmt::make_communicator("single");
  std::vector<std::pair<std::string, int64_t>> counts;
  for (int t = 4; t < 20; ++t) counts.emplace_back("w" + std::to_string(t), 10);
  synmt::Vocab vocab = synmt::Vocab::build(counts, {});
  nlohmann::json config = {{"model", model->describe()}, {"train", options.to_json()}, {"vocab", {{"src_sha256", "s"}, {"tgt_sha256", "t"}}}};
  auto r = synmt::train_model(*model, config, options, data, data, dir, "test", *comm, false, &vocab);
  std::vector<double> bleu, ppl;
  std::ifstream metrics(dir + "/metrics.jsonl");
  for (std::string line; std::getline(metrics, line);) {
    auto j = nlohmann::json::parse(line);
    if (j.value("type", "") != "valid") continue;
    ASSERT_TRUE(j.contains("valid_bleu")) << "a validation without BLEU: " << line;
    bleu.push_back(j["valid_bleu"].get<double>());
    ppl.push_back(j["valid_ppl"].get<double>());
  }
  ASSERT_GE(bleu.size(), 4u);
  const auto best_bleu = static_cast<std::size_t>(std::max_element(bleu.begin(), bleu.end()) - bleu.begin());  // the first maximum
  const auto best_ppl = static_cast<std::size_t>(std::min_element(ppl.begin(), ppl.end()) - ppl.begin());
  EXPECT_GT(bleu[best_bleu], 0.0);
  EXPECT_DOUBLE_EQ(r.best_valid_bleu, bleu[best_bleu]);
  ASSERT_NE(best_bleu, best_ppl) << "the run no longer tells BLEU from perplexity: change its settings";
  auto best = synmt::load_checkpoint(dir + "/best.pt");
  auto kept = synmt::load_checkpoint(dir + "/snapshot." + std::to_string(best_bleu + 1) + ".pt");
  auto by_ppl = synmt::load_checkpoint(dir + "/snapshot." + std::to_string(best_ppl + 1) + ".pt");
  auto pb = best.model->named_parameters(), pk = kept.model->named_parameters(), pp = by_ppl.model->named_parameters();
  bool differs_from_ppl = false;
  for (const auto& p : pb) {
    EXPECT_TRUE(torch::equal(p.value(), pk[p.key()])) << p.key();
    differs_from_ppl = differs_from_ppl || !torch::equal(p.value(), pp[p.key()]);
  }
  EXPECT_TRUE(differs_from_ppl);
}

// The updates at which a tiny model trained on 40 copy pairs (10 batches of 4 an epoch, 2 epochs)
// validates, under the given schedule options.
namespace {
std::vector<int64_t> validation_steps(const std::string& name, const nlohmann::json& schedule) {
  torch::manual_seed(0);
  auto model = synmt::create_model(tiny("rnn_tiny"));
  const auto dir = fresh_dir(name);
  nlohmann::json train = {{"batch_size", 4}, {"max_epochs", 2}, {"log_interval", 100}};
  train.update(schedule);
  auto options = synmt::TrainOptions::from_json(train);
  auto data = copy_task(40);
  auto comm = synmt::make_communicator("single");
  nlohmann::json config = {{"model", model->describe()}, {"train", options.to_json()}, {"vocab", {{"src_sha256", "s"}, {"tgt_sha256", "t"}}}};
  synmt::train_model(*model, config, options, data, data, dir, "test", *comm, false, nullptr);
  std::vector<int64_t> steps;
  std::ifstream metrics(dir + "/metrics.jsonl");
  for (std::string line; std::getline(metrics, line);) {
    auto j = nlohmann::json::parse(line);
    if (j.value("type", "") == "valid") steps.push_back(j["step"].get<int64_t>());
  }
  return steps;
}
}  // namespace

// valid_per_epoch: checks at equal fractions of each epoch, the last at its end, and never two a
// few updates apart (LGP's "every half epoch"); 3 checks per epoch.
TEST(Training, ValidatesAtEqualFractionsOfEachEpoch) {
  EXPECT_EQ(validation_steps("valid_per_epoch", {{"valid_per_epoch", 3}}),
            (std::vector<int64_t>{4, 7, 10, 14, 17, 20}));  // once k/3 of the 10 batches are done, and at the end
  EXPECT_THROW(synmt::TrainOptions::from_json({{"valid_per_epoch", 0}}).to_json(), synmt::ConfigError);
  EXPECT_THROW(synmt::TrainOptions::from_json({{"valid_per_epoch", -1}, {"valid_interval", 3}}).to_json(), synmt::ConfigError);
}

// valid_per_epoch 0 with valid_interval: SA-NMT's "every 10,000 updates" and no extra check at
// an epoch end (one a few updates after an interval check would add a noisy halving decision),
// but one when training ends; checks every 3 updates.
TEST(Training, ValidatesOnlyEveryIntervalWhenNotPerEpoch) {
  EXPECT_EQ(validation_steps("valid_interval_only", {{"valid_per_epoch", 0}, {"valid_interval", 3}}),
            (std::vector<int64_t>{3, 6, 9, 12, 15, 18, 20}));  // not at update 10 (the first epoch's end)
}

TEST(Ensemble, OfOneModelIsTheModelAndOfTwoIsTheMean) {
  torch::manual_seed(1);
  auto m1 = synmt::create_model(tiny("transformer_tiny"));
  auto m2 = synmt::create_model(tiny("rnn_tiny"));
  m1->eval();
  m2->eval();
  auto data = copy_task(8);
  synmt::BatchIterator it(data, {});
  auto b = it.make_batch({0, 1, 2, 3});
  synmt::EnsembleModel one({m1});
  EXPECT_TRUE(torch::equal(one.forward(b.source, b.tgt_in).log_probs, m1->forward(b.source, b.tgt_in).log_probs));
  synmt::SearchOptions so;
  so.beam_size = 3;
  so.nbest = 3;
  auto direct = synmt::beam_search(*m1, b, so), wrapped = synmt::beam_search(one, b, so);
  for (std::size_t i = 0; i < direct.size(); ++i) {
    ASSERT_EQ(direct[i].size(), wrapped[i].size());
    for (std::size_t k = 0; k < direct[i].size(); ++k) {
      EXPECT_EQ(direct[i][k].tokens, wrapped[i][k].tokens);
      EXPECT_DOUBLE_EQ(direct[i][k].score, wrapped[i][k].score);
    }
  }
  synmt::EnsembleModel two({m1, m2});
  auto mean = (m1->forward(b.source, b.tgt_in).log_probs + m2->forward(b.source, b.tgt_in).log_probs) / 2;
  EXPECT_TRUE(torch::allclose(two.forward(b.source, b.tgt_in).log_probs, mean, 1e-5, 1e-6));
  // stepping the ensemble gives the teacher-forced mean too (members keep separate states)
  auto state = two.encode(b.source);
  for (int64_t t = 0; t < 3; ++t)
    EXPECT_TRUE(torch::allclose(two.step(state, b.tgt_in.select(1, t)), mean.select(1, t), 1e-4, 1e-5));
}

// The finished hypotheses' scores are the formulas of beam_search.h for a real model (whose
// untrained outputs all run to the length limit, so the ranking itself is tested below).
TEST(BeamSearch, ScoresAreTheNormalisedLogProbabilityWithTheLengthPrior) {
  torch::manual_seed(2);
  auto model = synmt::create_model(tiny("transformer_tiny"));
  model->eval();
  auto data = copy_task(4);
  synmt::BatchIterator it(data, {});
  auto b = it.make_batch({0, 1});
  synmt::SearchOptions so;
  so.beam_size = 4;
  so.nbest = 4;
  so.length_norm = "average";
  // L = words + 1, whether the hypothesis ended with </s> or stopped at the length limit a*|x|+b
  auto norm_length = [&](const synmt::Hypothesis& h, std::size_t) { return h.tokens.size() + 1; };
  auto plain = synmt::beam_search(*model, b, so);
  for (std::size_t i = 0; i < 2; ++i)
    for (const auto& h : plain[i]) EXPECT_NEAR(h.score, h.log_prob / static_cast<double>(norm_length(h, i)), 1e-9);
  // with a prior: score * L = log p + log prior(|x|, L)
  auto prior = [](int64_t src_len, int64_t len) { return -0.7 * static_cast<double>(len) + 0.01 * static_cast<double>(src_len); };
  so.length_prior = prior;
  auto with_prior = synmt::beam_search(*model, b, so);
  for (std::size_t i = 0; i < 2; ++i)
    for (const auto& h : with_prior[i]) {
      const auto src_len = b.source.lengths[static_cast<int64_t>(i)].item<int64_t>();
      const auto L = static_cast<int64_t>(norm_length(h, i));
      EXPECT_NEAR(h.score * static_cast<double>(L), h.log_prob + prior(src_len, L), 1e-6);
    }
  so.length_norm = "words";
  EXPECT_THROW(synmt::beam_search(*model, b, so), synmt::ConfigError);
}

namespace {
// A model whose next-token distribution depends on the previous token only: after <s>,
// P(</s>) = 0.4 and P(a) = 0.6; after a, P(</s>) = P(a) = 0.5. Its outputs a^n have
// log p = -0.916 (n = 0), -1.204, -1.897, -2.590 (n = 3) and L_y = n + 1, so the normalisations
// rank them differently: raw and GNMT (alpha 1) put the empty output first, the average
// (|y|^1, also fairseq's alpha 1) puts "a" first (-0.602 against -0.916), and a prior of
// -2 (L_y - 1) brings the empty output back to the top.
class PreviousTokenModel : public synmt::Seq2SeqModel {
 public:
  static constexpr int64_t kA = 4;
  synmt::ModelOutput forward(const synmt::SourceInput&, const torch::Tensor&, const synmt::ForwardRequest&) override {
    throw std::logic_error("PreviousTokenModel only decodes");
  }
  synmt::DecodeState encode(const synmt::SourceInput& src) override {
    synmt::DecodeState state;
    // an attention over the source that stays uniform, for the collected-attention test
    state["attention"] = torch::full({src.batch_size(), src.tokens.size(1)}, 1.0 / static_cast<double>(src.tokens.size(1)));
    return state;
  }
  torch::Tensor step(synmt::DecodeState&, const torch::Tensor& prev) override {
    auto logp = torch::full({prev.size(0), kA + 1}, -1e9, torch::kFloat64);
    const auto after_bos = prev.eq(synmt::special::kBos).to(torch::kFloat64);
    logp.select(1, synmt::special::kEos).copy_(after_bos * std::log(0.4) + (1 - after_bos) * std::log(0.5));
    logp.select(1, kA).copy_(after_bos * std::log(0.6) + (1 - after_bos) * std::log(0.5));
    return logp;
  }
  nlohmann::json describe() const override { return {{"arch", "previous_token"}}; }
};

// Its four outputs a^0..a^3 as a 4-best list: beam 4, a length limit of max_len words
synmt::SearchOptions four_best(int max_len) {
  synmt::SearchOptions so;
  so.beam_size = 4;
  so.nbest = 4;
  so.max_len_a = 0.0;
  so.max_len_b = max_len;
  return so;
}
}  // namespace

TEST(BeamSearch, LengthNormalisationAndPriorChangeTheRanking) {
  PreviousTokenModel model;
  auto data = copy_task(2);
  synmt::BatchIterator it(data, {});
  auto b = it.make_batch({0});
  auto so = four_best(8);
  // the number of a's in each n-best entry, best first; every entry's log p and score by hand:
  // log p(a^n </s>) = log 0.4 for n = 0, log 0.6 + n log 0.5 after, L = n + 1; score(lp, n) the norm
  auto ranking = [&](const std::function<double(double, double)>& score) {
    const auto result = synmt::beam_search(model, b, so);
    std::vector<std::size_t> lengths;
    for (const auto& h : result[0]) {
      for (auto token : h.tokens) EXPECT_EQ(token, PreviousTokenModel::kA);
      const double n = static_cast<double>(h.tokens.size());
      const double lp = n == 0 ? std::log(0.4) : std::log(0.6) + n * std::log(0.5);
      EXPECT_NEAR(h.log_prob, lp, 1e-9) << n;
      EXPECT_NEAR(h.score, score(lp, n), 1e-9) << n;
      lengths.push_back(h.tokens.size());
    }
    return lengths;
  };
  so.length_penalty = 0.0;  // raw log p
  EXPECT_EQ(ranking([](double lp, double) { return lp; }), (std::vector<std::size_t>{0, 1, 2, 3}));
  so.length_penalty = 1.0;  // GNMT: log p / ((5 + L) / 6)
  EXPECT_EQ(ranking([](double lp, double n) { return lp / ((5 + n + 1) / 6); }), (std::vector<std::size_t>{0, 1, 2, 3}));
  so.length_norm = "average";  // log p / L
  EXPECT_EQ(ranking([](double lp, double n) { return lp / (n + 1); }), (std::vector<std::size_t>{1, 2, 3, 0}));
  so.length_norm = "fairseq";  // log p / L^alpha
  so.length_penalty = 0.5;
  EXPECT_EQ(ranking([](double lp, double n) { return lp / std::sqrt(n + 1); }), (std::vector<std::size_t>{1, 0, 2, 3}));
  so.length_penalty = 1.0;
  so.length_norm = "average";
  so.length_prior = [](int64_t, int64_t len) { return -2.0 * static_cast<double>(len - 1); };
  EXPECT_EQ(ranking([](double lp, double n) { return (lp - 2 * n) / (n + 1); }), (std::vector<std::size_t>{0, 1, 2, 3}));
}

// Attention collected by beam search: one row per output step, each a distribution over the
// source: words + 1 rows for a hypothesis that ended with </s>, one per word for one cut at the
// length limit (12 here). With beam 1 the search is the greedy one: same tokens as greedy_search.
TEST(BeamSearch, CollectsOneAttentionRowPerStep) {
  for (const char* arch : {"rnn_tiny", "transformer_tiny"}) {
    torch::manual_seed(6);
    auto model = synmt::create_model(tiny(arch));
    model->eval();
    auto data = copy_task(4);
    synmt::BatchIterator it(data, {});
    auto b = it.make_batch({0, 3});
    synmt::SearchOptions so;
    so.max_len_a = 0.0;
    so.max_len_b = 12;
    so.collect_attention = true;
    so.beam_size = 1;
    const auto greedy = synmt::greedy_search(*model, b, so);
    const auto beam1 = synmt::beam_search(*model, b, so);
    for (std::size_t i = 0; i < 2; ++i) EXPECT_EQ(beam1[i].front().tokens, greedy[i]) << arch;
    so.beam_size = 3;
    const auto results = synmt::beam_search(*model, b, so);
    for (std::size_t i = 0; i < 2; ++i) {
      const auto& h = results[i].front();
      ASSERT_TRUE(h.attention.defined()) << arch;
      const auto steps = h.attention.size(0);
      const auto words = static_cast<int64_t>(h.tokens.size());
      ASSERT_LE(words, 12) << arch;
      EXPECT_EQ(steps, words < 12 ? words + 1 : words) << arch;
      const auto len = b.source.lengths[static_cast<int64_t>(i)].item<int64_t>();
      EXPECT_TRUE(torch::allclose(h.attention.narrow(1, 0, len).sum(1), torch::ones({steps}), 1e-4, 1e-5)) << arch;
    }
  }
  // the untrained models' hypotheses above all run to the limit; the scripted model's four end
  // with </s> after 0-3 words: words + 1 rows each
  PreviousTokenModel scripted;
  auto data = copy_task(2);
  synmt::BatchIterator it(data, {});
  auto b = it.make_batch({0});
  auto so = four_best(12);
  so.collect_attention = true;
  so.length_penalty = 0.0;
  const auto ended = synmt::beam_search(scripted, b, so);
  ASSERT_EQ(ended[0].size(), 4u);
  for (const auto& h : ended[0]) {
    ASSERT_TRUE(h.attention.defined());
    EXPECT_LT(h.tokens.size(), 12u);
    EXPECT_EQ(h.attention.size(0), static_cast<int64_t>(h.tokens.size()) + 1);
  }
}

// A training state saved by a build before a model (or train) option existed lacks that option; today's
// default reproduces the old computation, so the state is the same training (a resume after an
// upgrade must not set it aside and start afresh). Another value of the option is not.
TEST(TrainingState, AStateSavedBeforeAnOptionExistedIsTheSameTrainingUnderItsDefault) {
  const auto resolved = synmt::test::tiny_arch("lg_graph_emb");
  ASSERT_TRUE(resolved["options"].contains("embed_scale"));
  auto model = synmt::create_model(resolved);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  const nlohmann::json now = {{"model", resolved}, {"train", {{"lr", 0.1}, {"max_epochs", 2}}}};
  nlohmann::json before = now;
  before["model"]["options"].erase("embed_scale");
  const auto path = (std::filesystem::temp_directory_path() / "synmt_state_option_default.pt").string();
  synmt::save_training_state(path, *model, optimizer, synmt::TrainingCursor{}, before.dump(), torch::zeros({1, 4}));
  EXPECT_TRUE(synmt::training_state_matches(path, now.dump()));
  nlohmann::json longer = now;
  longer["train"]["max_epochs"] = 4;  // a higher cap: the same training, carried on
  EXPECT_TRUE(synmt::training_state_matches(path, longer.dump()));
  nlohmann::json other = now;
  other["model"]["options"]["embed_scale"] = "none";
  EXPECT_FALSE(synmt::training_state_matches(path, other.dump()));
  // a train option written out in full today (its default) against a stored config without it
  nlohmann::json full_train = now;
  full_train["train"] = synmt::TrainOptions::from_json(now["train"]).to_json();
  EXPECT_TRUE(synmt::training_state_matches(path, full_train.dump()));
  full_train["train"]["weight_decay"] = 0.01;
  EXPECT_FALSE(synmt::training_state_matches(path, full_train.dump()));
  std::filesystem::remove(path);
}

// A state records the digests of its training and validation data (config.json's `data`): the same
// config over other data (the corpus parsed by a parser trained on another machine) is another run,
// while a state saved before configs carried the digests is compared without them.
TEST(TrainingState, AStateOfOtherDataIsAnotherTrainingAndOneWithoutDigestsIsComparedWithoutThem) {
  const auto resolved = synmt::test::tiny_arch("transformer_tiny");
  auto model = synmt::create_model(resolved);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  const nlohmann::json now = {{"model", resolved}, {"train", {{"lr", 0.1}}},
                              {"data", {{"train_sha256", "aa"}, {"valid_sha256", "bb"}}}};
  const auto path = (std::filesystem::temp_directory_path() / "synmt_state_data_digest.pt").string();
  synmt::save_training_state(path, *model, optimizer, synmt::TrainingCursor{}, now.dump(), torch::zeros({1, 4}));
  EXPECT_TRUE(synmt::training_state_matches(path, now.dump()));
  nlohmann::json reparsed = now;
  reparsed["data"]["train_sha256"] = "cc";
  EXPECT_FALSE(synmt::training_state_matches(path, reparsed.dump()));
  nlohmann::json other_valid = now;
  other_valid["data"]["valid_sha256"] = "cc";
  EXPECT_FALSE(synmt::training_state_matches(path, other_valid.dump()));
  nlohmann::json before = now;
  before.erase("data");
  synmt::save_training_state(path, *model, optimizer, synmt::TrainingCursor{}, before.dump(), torch::zeros({1, 4}));
  EXPECT_TRUE(synmt::training_state_matches(path, now.dump()));
  EXPECT_TRUE(synmt::training_state_matches(path, reparsed.dump()));
  nlohmann::json other_lr = now;
  other_lr["train"]["lr"] = 0.2;  // without digests the rest is still compared
  EXPECT_FALSE(synmt::training_state_matches(path, other_lr.dump()));
  std::filesystem::remove(path);
}

// summary.json names the build and the hardware of each session that trained a run: a resume by
// the same build on the same hardware continues the last session, one on other hardware (a lent
// GPU, another node kind) starts a new one at the update where it took over.
TEST(Training, TheSummaryListsEachBuildAndHardwareThatTrainedTheRun) {
  const auto dir = fresh_dir("sessions_run");
  auto data = copy_task(16);
  auto comm = synmt::make_communicator("single");
  auto train = [&](int max_epochs, const std::string& hardware, bool resume) {
    torch::manual_seed(0);
    auto model = synmt::create_model(tiny("rnn_tiny"));
    auto options = synmt::TrainOptions::from_json({{"batch_size", 8}, {"max_epochs", max_epochs}});
    nlohmann::json config = {{"model", model->describe()}, {"train", options.to_json()}, {"vocab", {{"src_sha256", "s"}, {"tgt_sha256", "t"}}}};
    const auto r = synmt::train_model(*model, config, options, data, data, dir, hardware, *comm, resume);
    std::ifstream in(dir + "/summary.json");
    return std::make_pair(r.steps, nlohmann::json::parse(in)["sessions"]);
  };
  const auto [steps1, one] = train(1, "cpu-a", false);
  ASSERT_GT(steps1, 0);
  EXPECT_EQ(one, nlohmann::json::parse(R"([{"commit": ")" + std::string(synmt::build_commit()) +
                                       R"(", "hardware": "cpu-a", "from_step": 0, "ranks": 1}])"));
  const auto [steps2, two] = train(2, "gpu-b", true);
  EXPECT_EQ(steps2, 2 * steps1);  // resumed, not restarted
  ASSERT_EQ(two.size(), 2u) << two.dump();
  EXPECT_EQ(two[0], one[0]);
  EXPECT_EQ(two[1]["hardware"], "gpu-b");
  EXPECT_EQ(two[1]["from_step"], steps1);
  const auto [steps3, still_two] = train(3, "gpu-b", true);
  EXPECT_EQ(steps3, 3 * steps1);
  EXPECT_EQ(still_two, two);
  EXPECT_FALSE(std::string(synmt::build_commit()).empty());
}

// A sealed state proves its bytes are the ones written, not that they are sane: counters out of
// range (a negative position in the epoch's batch plan would index it out of bounds) are refused
// with the file's name; the same state with sane counters resumes where it was saved.
TEST(TrainingState, CountersOutOfRangeAreRefused) {
  const auto resolved = synmt::test::tiny_arch("rnn_tiny");
  auto model = synmt::create_model(resolved);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  const std::string config = nlohmann::json{{"model", resolved}, {"train", {{"lr", 0.1}}}}.dump();
  const auto path = synmt::test::tmp_path("state_counters.pt");
  const auto rng = at::detail::getDefaultCPUGenerator().get_state().unsqueeze(0);
  auto load_error = [&](const synmt::TrainingCursor& cursor) -> std::string {
    synmt::save_training_state(path, *model, optimizer, cursor, config, rng);
    try {
      const auto back = synmt::load_training_state(path, *model, optimizer, config, 0, 1);
      return "resumed at epoch " + std::to_string(back.epoch) + ", batch " + std::to_string(back.batch_in_epoch);
    } catch (const synmt::InputError& e) {
      return e.what();
    }
  };
  synmt::TrainingCursor sane;
  sane.epoch = 3;
  sane.batch_in_epoch = 17;
  sane.lr = 0.05;
  EXPECT_EQ(load_error(sane), "resumed at epoch 3, batch 17");
  auto negative_batch = sane;
  negative_batch.batch_in_epoch = -2;
  EXPECT_EQ(load_error(negative_batch), path + ": a damaged training state (counter 1 is -2)");
  auto epoch_zero = sane;
  epoch_zero.epoch = 0;
  EXPECT_EQ(load_error(epoch_zero), path + ": a damaged training state (counter 0 is 0)");
  auto no_validation_yet = sane;
  no_validation_yet.last_validation_step = -1;  // the one counter that may be -1
  EXPECT_EQ(load_error(no_validation_yet), "resumed at epoch 3, batch 17");
  no_validation_yet.last_validation_step = -2;
  EXPECT_EQ(load_error(no_validation_yet), path + ": a damaged training state (counter 9 is -2)");
  auto nan_rate = sane;
  nan_rate.lr = std::nan("");
  EXPECT_NE(load_error(nan_rate).find(path + ": a damaged training state (learning rate"), std::string::npos) << load_error(nan_rate);
}
