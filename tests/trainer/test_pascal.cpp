// Pascal's model family: the parent-scaled heads (closed form, which heads change, batch layout,
// parent ignoring, the two sigma readings, checkpoint reload) and the +SISA parent head (it learns a
// planted parse). Pascal = Bugliarello & Okazaki 2020; SISA = Strubell et al. 2018 as its baseline.
#include <gtest/gtest.h>

#include <torch/optim/adam.h>

#include <cmath>
#include <filesystem>
#include <numeric>

#include "core/error.h"
#include "trainer/data/batches.h"
#include "trainer/decode/beam_search.h"
#include "trainer/models/registry.h"
#include "trainer/models/transformer/pascal_heads.h"
#include "trainer/models/transformer/transformer.h"
#include "trainer/models/checkpoint.h"
#include "trainer/train/criterion.h"
#include "tests/trainer/tiny_models.h"

namespace {
using synmt::test::copy_task;

// Copy-task data with a planted parse: every token's parent is the previous one (the first token
// is the root, its own parent), all words one sub-word long.
synmt::ParallelData parsed_copy_task(int n) {
  auto d = copy_task(n);
  for (std::size_t i = 0; i < d.size(); ++i)
    for (int64_t k = 0; k < d.src_offsets[i + 1] - d.src_offsets[i]; ++k) {
      const int64_t parent = k == 0 ? 0 : k - 1;
      d.src_parent_middle.push_back(static_cast<float>(parent));
      d.src_parent_first.push_back(static_cast<int32_t>(parent));
      d.src_label.push_back(1);
    }
  return d;
}

// A tiny Transformer (dropout 0, so that training-mode passes are deterministic) with `modifiers`.
std::shared_ptr<synmt::TransformerModel> tiny(const nlohmann::json& modifiers, uint64_t seed = 7) {
  nlohmann::json options = synmt::test::tiny_arch("transformer_tiny", {{"dropout", 0.0}})["options"];
  options["score_modifiers"] = modifiers;
  torch::manual_seed(seed);
  return std::make_shared<synmt::TransformerModel>(synmt::TransformerOptions::from_json(options));
}

nlohmann::json pascal(nlohmann::json extra = nlohmann::json::object()) {
  nlohmann::json spec = {{"kind", "pascal"}, {"layer", 1}, {"heads", {1, 3}}, {"sigma", 1.0}};
  spec.update(extra);
  return nlohmann::json::array({spec});
}

synmt::SeamContext context_for(const synmt::SourceInput& input) { return synmt::SeamContext{input, nullptr}; }
}  // namespace

// N_ij = exp(-(j - p_i)^2 / 2 sigma^2) / sqrt(2 pi sigma^2) with sigma^2 the configured value
// (variance reading) or its square (std reading); parent-only is [|j - p_i| < 1], so a middle
// position x.5 keeps both neighbours.
TEST(Pascal, ScalingMatchesTheClosedForm) {
  auto parents = torch::tensor({{2.5f, 0.0f, 3.0f}});
  for (double sigma : {1.0, 4.0, 9.0}) {
    synmt::PascalOptions o;
    o.sigma = sigma;
    auto n = synmt::pascal_scaling(parents, 5, o);
    ASSERT_EQ(n.sizes(), (std::vector<int64_t>{1, 3, 5}));
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 5; ++j) {
        const double p = parents[0][i].item<double>();
        const double expected = std::exp(-(j - p) * (j - p) / (2 * sigma)) / std::sqrt(2 * M_PI * sigma);
        EXPECT_NEAR(n[0][i][j].item<double>(), expected, 1e-6) << "sigma^2 " << sigma << " i " << i << " j " << j;
      }
  }
  synmt::PascalOptions variance, stddev;
  stddev.sigma_reading = "std";
  EXPECT_TRUE(torch::allclose(synmt::pascal_scaling(parents, 5, variance), synmt::pascal_scaling(parents, 5, stddev)));
  variance.sigma = stddev.sigma = 4.0;
  auto v = synmt::pascal_scaling(parents, 5, variance), s = synmt::pascal_scaling(parents, 5, stddev);
  EXPECT_FALSE(torch::allclose(v, s, 1e-3, 1e-3));
  EXPECT_NEAR(s[0][1][0].item<double>(), 1.0 / std::sqrt(2 * M_PI * 16.0), 1e-6);  // sigma 4 read as a standard deviation
  synmt::PascalOptions only;
  only.parent_only = true;
  auto ind = synmt::pascal_scaling(parents, 5, only);
  EXPECT_TRUE(torch::equal(ind[0][0], torch::tensor({0.f, 0.f, 1.f, 1.f, 0.f})));  // p = 2.5: both neighbours
  EXPECT_TRUE(torch::equal(ind[0][2], torch::tensor({0.f, 0.f, 0.f, 1.f, 0.f})));
}

// The modifier scales exactly the chosen heads by N of their own sentence and copies every other
// head bit for bit; sentences never read each other's parents.
TEST(Pascal, OnlyChosenHeadsOfTheirOwnSentenceChange) {
  synmt::SyntaxModuleSizes sizes{32, 4, 2, 0, 0};
  synmt::PascalOptions o;
  o.layer = 1;
  o.heads = {1, 3};
  synmt::PascalHeadsImpl pascal(o, sizes);
  pascal.eval();
  synmt::SourceInput input;
  input.tokens = torch::ones({2, 4}, torch::kInt64);
  input.lengths = torch::tensor({4, 3}, torch::kInt64);
  input.features[synmt::kSourceFeatureParentPosition] = torch::tensor({{1.f, 1.f, 1.f, 2.f}, {0.f, 0.f, 1.5f, 0.f}});
  auto scores = torch::randn({2, 4, 4, 4});
  auto out = pascal.modify(scores, torch::Tensor(), context_for(input));
  for (int64_t h : {0, 2}) EXPECT_TRUE(torch::equal(out.select(1, h), scores.select(1, h)));
  for (int64_t b : {0, 1}) {
    auto n = synmt::pascal_scaling(input.features[synmt::kSourceFeatureParentPosition][b].unsqueeze(0), 4, o).squeeze(0);
    for (int64_t h : {1, 3}) EXPECT_TRUE(torch::allclose(out[b][h], scores[b][h] * n)) << "sentence " << b << " head " << h;
  }
}

// In a model: encoder layer 0 (below the Pascal layer) is the baseline's bit for bit, layer 1 differs
// only in the chosen heads; permuting the batch permutes the outputs.
TEST(Pascal, LayersBelowAndOtherHeadsAreTheBaselinesAndBatchOrderIsIrrelevant) {
  auto base = tiny(nlohmann::json::array()), model = tiny(pascal());
  base->eval();
  model->eval();
  auto data = parsed_copy_task(8);
  synmt::BatchIterator it(data, {});
  auto b = it.make_batch({1, 2, 3});
  synmt::ForwardRequest analysis;
  analysis.analysis = true;
  auto before = base->forward(b.source, b.tgt_in, analysis), after = model->forward(b.source, b.tgt_in, analysis);
  EXPECT_TRUE(torch::equal(before.analysis["encoder_attention_0"], after.analysis["encoder_attention_0"]));
  auto a0 = before.analysis["encoder_attention_1"], a1 = after.analysis["encoder_attention_1"];  // (B, H, S, S)
  for (int64_t h : {0, 2}) EXPECT_TRUE(torch::equal(a0.select(1, h), a1.select(1, h))) << "head " << h;
  for (int64_t h : {1, 3}) EXPECT_FALSE(torch::allclose(a0.select(1, h), a1.select(1, h), 1e-4, 1e-4)) << "head " << h;
  EXPECT_FALSE(torch::allclose(before.log_probs, after.log_probs, 1e-4, 1e-4));

  auto reversed = it.make_batch({3, 2, 1});
  auto r = model->forward(reversed.source, reversed.tgt_in).log_probs;
  for (int64_t i = 0; i < 3; ++i) {
    const int64_t len = b.tgt_in.size(1);
    EXPECT_TRUE(torch::allclose(r[2 - i].narrow(0, 0, len), after.log_probs[i].narrow(0, 0, len), 1e-5, 1e-5)) << i;
  }
}

// Parent ignoring: q = 1 in training is the baseline (every row of N replaced by ones); evaluation
// ignores q; 0 < q < 1 in training draws which rows are ignored.
TEST(Pascal, ParentIgnoringIsTrainingOnly) {
  synmt::ExplicitAttentionGuard same_arithmetic;  // the baseline's heads off the fused kernel too
  auto base = tiny(nlohmann::json::array());
  auto always = tiny(pascal({{"ignore_prob", 1.0}})), never = tiny(pascal()), half = tiny(pascal({{"ignore_prob", 0.5}}));
  auto data = parsed_copy_task(8);
  synmt::BatchIterator it(data, {});
  auto b = it.make_batch({1, 2, 3, 4});
  base->train();
  always->train();
  EXPECT_TRUE(torch::equal(base->forward(b.source, b.tgt_in).log_probs, always->forward(b.source, b.tgt_in).log_probs));
  never->eval();
  half->eval();
  EXPECT_TRUE(torch::equal(never->forward(b.source, b.tgt_in).log_probs, half->forward(b.source, b.tgt_in).log_probs));
  half->train();
  never->train();
  torch::manual_seed(1);
  auto drawn = half->forward(b.source, b.tgt_in).log_probs;
  EXPECT_FALSE(torch::allclose(drawn, never->forward(b.source, b.tgt_in).log_probs, 1e-5, 1e-5));
  EXPECT_FALSE(torch::allclose(drawn, base->forward(b.source, b.tgt_in).log_probs, 1e-5, 1e-5));
}

// share_ignore_across_heads: one draw per (sentence, row) for all P heads, so every chosen head
// keeps or drops the same rows; by default each head draws its own.
TEST(Pascal, IgnoringDrawsPerHeadOrShared) {
  synmt::SyntaxModuleSizes sizes{32, 4, 2, 0, 0};
  synmt::SourceInput input;
  input.tokens = torch::ones({2, 6}, torch::kInt64);
  input.lengths = torch::tensor({6, 6}, torch::kInt64);
  input.features[synmt::kSourceFeatureParentPosition] = torch::tensor({{1.f, 2.f, 3.f, 4.f, 5.f, 0.f}, {5.f, 4.f, 3.f, 2.f, 1.f, 0.f}});
  auto scores = torch::rand({2, 4, 6, 6}) + 1.0;  // positive, so a scaled row never equals its original
  auto ignored_rows = [&](bool shared) {
    synmt::PascalOptions o;
    o.heads = {0, 2, 3};
    o.ignore_prob = 0.25;  // not 0.5: a rule that ignored with probability 1 - q would pass at 0.5
    o.share_ignore_across_heads = shared;
    synmt::PascalHeadsImpl pascal(o, sizes);
    pascal.train();
    torch::manual_seed(11);
    auto out = pascal.modify(scores, torch::Tensor(), context_for(input));
    return (out == scores).all(-1).index_select(1, torch::tensor({0, 2, 3}));  // (B, P, T): row left as it was
  };
  auto shared = ignored_rows(true), own = ignored_rows(false);
  EXPECT_TRUE(torch::equal(shared.select(1, 0), shared.select(1, 1)));
  EXPECT_TRUE(torch::equal(shared.select(1, 0), shared.select(1, 2)));
  EXPECT_FALSE(torch::equal(own.select(1, 0), own.select(1, 1)) && torch::equal(own.select(1, 0), own.select(1, 2)));
  // drawn per row, not once per (sentence, head): some head keeps some rows and ignores others
  EXPECT_TRUE((own.any(2) & own.logical_not().any(2)).any().item<bool>());
  const double rate = own.to(torch::kFloat64).mean().item<double>();  // 36 rows, q = 0.25
  EXPECT_GT(rate, 0.1);
  EXPECT_LT(rate, 0.4);
}

// The modifier is rebuilt from the checkpoint's options: a reloaded Pascal model decodes exactly as
// the in-process one, and not as the baseline with the same weights.
TEST(Pascal, CheckpointReloadKeepsTheModifier) {
  torch::NoGradGuard no_grad;
  auto config = synmt::test::tiny_arch("transformer_tiny", {{"dropout", 0.0}});
  config["options"]["score_modifiers"] = pascal({{"heads", {0, 1, 2, 3}}, {"layer", 0}});
  config = synmt::resolve_model_config(config);
  torch::manual_seed(8);
  auto model = synmt::create_model(config);
  for (auto& p : model->parameters()) p.add_(0.5 * torch::randn_like(p));
  std::filesystem::create_directories(SYNMT_TEST_TMP);
  const std::string path = std::string(SYNMT_TEST_TMP) + "/pascal_reload.pt";
  synmt::save_checkpoint(path, *model, {{"model", config}, {"vocab", {{"src_sha256", "a"}, {"tgt_sha256", "b"}}}});
  auto loaded = synmt::load_checkpoint(path);
  auto base_config = config;
  base_config["options"]["score_modifiers"] = nlohmann::json::array();
  auto base = synmt::create_model(base_config);
  auto weights = model->named_parameters();  // Pascal owns no parameters: the same names
  for (auto& p : base->named_parameters()) p.value().copy_(weights[p.key()]);
  model->eval();
  loaded.model->eval();
  base->eval();
  auto data = parsed_copy_task(16);
  synmt::BatchIterator it(data, {});
  auto b = it.make_batch({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
  synmt::SearchOptions o;
  o.beam_size = 3;
  o.length_norm = "fairseq";
  o.length_penalty = 0.6;
  auto tokens = [&](synmt::Seq2SeqModel& m) {
    std::vector<std::vector<int32_t>> all;
    for (auto& nbest : synmt::beam_search(m, b, o)) all.push_back(nbest.front().tokens);
    return all;
  };
  auto in_process = tokens(*model);
  EXPECT_EQ(tokens(*loaded.model), in_process);
  EXPECT_NE(tokens(*base), in_process);
}

// +SISA with a planted parse (every token's parent is the previous token) learns to put >= 0.9 of
// its attention on the parent within a few hundred updates of NMT loss + parent loss.
TEST(Sisa, LearnsAPlantedParse) {
  auto config = synmt::test::tiny_arch("transformer_sisa_tiny", {{"dropout", 0.0}});
  torch::manual_seed(3);
  auto model = synmt::create_model(config);
  auto data = parsed_copy_task(64);
  synmt::BatchIterator it(data, {});
  std::vector<int64_t> all(64);
  std::iota(all.begin(), all.end(), 0);
  auto b = it.make_batch(all);
  ASSERT_EQ(model->required_features(), std::set<std::string>{synmt::kSourceFeatureParentFirst});
  const synmt::Criterion criterion(synmt::CriterionOptions{0.1, {}});
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(3e-3));
  auto parent_mass = [&] {
    torch::NoGradGuard no_grad;
    model->eval();
    synmt::ForwardRequest r;
    r.analysis = true;
    auto a = model->forward(b.source, b.tgt_in, r).analysis["encoder_attention_0"].select(1, 3);  // (B, S, S): the last head
    auto parent = b.source.features[synmt::kSourceFeatureParentFirst];
    auto mass = a.gather(2, parent.unsqueeze(2)).squeeze(2);
    auto real = torch::arange(parent.size(1)).unsqueeze(0) < b.source.lengths.unsqueeze(1);
    model->train();
    return (mass * real).sum().item<double>() / real.sum().item<double>();
  };
  const double initial = parent_mass();
  double mass = initial;
  int step = 0;
  for (; step < 400 && mass < 0.9; ++step) {
    opt.zero_grad();
    auto out = model->forward(b.source, b.tgt_in);
    ASSERT_TRUE(out.aux_losses.count("parent_attention"));
    auto terms = criterion(out, b.tgt_out, 0);
    (terms.objective / b.target_tokens).backward();
    opt.step();
    if (step % 20 == 19) mass = parent_mass();
  }
  EXPECT_GE(mass, 0.9) << "after " << step << " updates (initial " << initial << ")";
  EXPECT_LT(initial, 0.6);
}

// +SISA's query and key pass through a leaky ReLU (the released code's reading of the paper's
// "feed-forward layer"); "none" keeps them linear, and other values are refused by name.
TEST(Sisa, ActivationOfTheFeedForwardProjections) {
  auto with = [](const std::string& activation) {
    auto config = synmt::test::tiny_arch("transformer_sisa_tiny", {{"dropout", 0.0}});
    if (!activation.empty()) config["options"]["score_modifiers"][0]["activation"] = activation;
    torch::manual_seed(5);
    return synmt::create_model(config);
  };
  auto data = parsed_copy_task(8);
  synmt::BatchIterator it(data, {});
  std::vector<int64_t> all(8);
  std::iota(all.begin(), all.end(), 0);
  auto b = it.make_batch(all);
  auto scores = [&](auto& m) {
    torch::NoGradGuard no_grad;
    m->eval();
    synmt::ForwardRequest r;
    r.analysis = true;
    return m->forward(b.source, b.tgt_in, r).analysis["encoder_attention_0"].select(1, 3);
  };
  auto leaky = with("leaky_relu"), linear = with("none"), preset = with("");
  // the same seed gives the same parameters: only the activation differs; the preset's is leaky_relu
  EXPECT_FALSE(torch::allclose(scores(leaky), scores(linear)));
  EXPECT_TRUE(torch::equal(scores(leaky), scores(preset)));
  try {
    with("relu");
    FAIL() << "an unknown activation must be refused";
  } catch (const synmt::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("leaky_relu or none, not 'relu'"), std::string::npos) << e.what();
  }
}
