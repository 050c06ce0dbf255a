#include <gtest/gtest.h>

#include <torch/optim/adam.h>

#include <cmath>

#include "core/error.h"
#include "trainer/data/batches.h"
#include "trainer/models/registry.h"
#include "trainer/models/transformer/syntax_modules.h"
#include "trainer/models/transformer/transformer.h"
#include "trainer/nn/multi_head_attention.h"
#include "trainer/nn/transformer_layers.h"
#include "trainer/train/loss.h"
#include "tests/trainer/tiny_models.h"

namespace {
using synmt::test::copy_task;
nlohmann::json tiny_transformer(bool pre_norm = false) {
  return synmt::test::tiny_arch("transformer_tiny", {{"pre_norm", pre_norm}});
}

}  // namespace

TEST(Transformer, SinusoidalPositionsMatchTheClosedForm) {
  auto pe = synmt::sinusoidal_positions(10, 8, 2);
  for (int pos : {0, 3, 9})
    for (int i = 0; i < 4; ++i) {
      double angle = (pos + 2) / std::pow(10000.0, 2.0 * i / 8.0);
      EXPECT_NEAR(pe[pos][2 * i].item<double>(), std::sin(angle), 1e-6);
      EXPECT_NEAR(pe[pos][2 * i + 1].item<double>(), std::cos(angle), 1e-6);
    }
}

TEST(Transformer, ArchitecturesResolveAndBaseIsVaswaniBase) {
  auto m = synmt::resolve_model_config({{"arch", "transformer_base"}});
  EXPECT_EQ(m["family"], "transformer");
  EXPECT_EQ(m["options"]["model_dim"], 512);
  EXPECT_EQ(m["options"]["heads"], 8);
  EXPECT_EQ(m["options"]["ffn_dim"], 2048);
  EXPECT_EQ(m["options"]["encoder_layers"], 6);
  EXPECT_EQ(m["options"]["decoder_layers"], 6);
  auto bad = tiny_transformer();
  bad["options"]["heads"] = 5;  // 32 is not a multiple of 5
  EXPECT_THROW(synmt::create_model(bad), synmt::ConfigError);
  bad = tiny_transformer();
  bad["options"]["share_all_embeddings"] = true;
  bad["options"]["tgt_vocab"] = 21;
  EXPECT_THROW(synmt::create_model(bad), synmt::ConfigError);
}

// Incremental decoding (cached keys/values, one token per step) must give exactly the
// teacher-forced distributions, for post- and pre-norm, on a padded batch.
TEST(Transformer, IncrementalStepsEqualTeacherForcing) {
  for (bool pre_norm : {false, true}) {
    torch::manual_seed(3);
    auto model = synmt::create_model(tiny_transformer(pre_norm));
    model->eval();
    auto data = copy_task(8);
    synmt::BatchIterator it(data, {});
    auto b = it.make_batch({0, 1, 2, 3});
    auto full = model->forward(b.source, b.tgt_in).log_probs;  // (B, T, V)
    auto state = model->encode(b.source);
    for (int64_t t = 0; t < b.tgt_in.size(1); ++t) {
      auto logp = model->step(state, b.tgt_in.select(1, t));
      EXPECT_TRUE(torch::allclose(logp, full.select(1, t), 1e-4, 1e-5)) << "pre_norm " << pre_norm << " step " << t;
    }
    EXPECT_TRUE(torch::allclose(full.exp().sum(-1), torch::ones({4, full.size(1)}), 1e-4, 1e-5));
  }
}

// Padding must not leak into real positions: a sentence scores the same alone and in a batch
// with a longer one.
TEST(Transformer, PaddingDoesNotChangeResults) {
  torch::manual_seed(4);
  auto model = synmt::create_model(tiny_transformer());
  model->eval();
  auto data = copy_task(8);
  synmt::BatchIterator it(data, {});
  auto alone = it.make_batch({0});    // 3 tokens
  auto padded = it.make_batch({0, 3});  // with a 6-token sentence
  auto a = model->forward(alone.source, alone.tgt_in).log_probs;
  auto p = model->forward(padded.source, padded.tgt_in).log_probs;
  const int64_t T = a.size(1);
  EXPECT_TRUE(torch::allclose(a[0], p[0].narrow(0, 0, T), 1e-4, 1e-5));
}

// Syntax seams built from options: a parent_bias modifier with a zero bias and no loss is the
// baseline exactly (same weights); a non-zero bias changes the model; its loss term appears in
// the output; a batch without the feature is refused, never silently decoded as the baseline.
TEST(Transformer, ScoreModifierFromOptionsReadsParents) {
  synmt::ExplicitAttentionGuard same_arithmetic;  // the baseline's heads off the fused kernel too
  auto base_config = tiny_transformer();
  auto syntax_config = base_config;
  syntax_config["options"]["score_modifiers"] = {{{"kind", "parent_bias"}, {"layer", 1}, {"heads", {3}}, {"loss", true}}};
  syntax_config["options"] = synmt::resolve_model_config({{"family", "transformer"}, {"options", syntax_config["options"]}})["options"];
  torch::manual_seed(5);
  auto base = std::make_shared<synmt::TransformerModel>(synmt::TransformerOptions::from_json(base_config["options"]));
  torch::manual_seed(5);
  auto model = std::make_shared<synmt::TransformerModel>(synmt::TransformerOptions::from_json(syntax_config["options"]));
  base->eval();
  model->eval();
  EXPECT_EQ(model->required_features(), std::set<std::string>{synmt::kSourceFeatureParentFirst});
  auto data = copy_task(8);
  synmt::BatchIterator it(data, {});
  auto b = it.make_batch({2, 3});
  const int64_t B = 2, S = b.source.tokens.size(1);
  EXPECT_THROW(model->forward(b.source, b.tgt_in), synmt::ConfigError);
  // each sentence its own parents within its own length (token i's parent i+1+b, wrapped; pads 0)
  const auto position = torch::arange(S, torch::kInt64).unsqueeze(0), length = b.source.lengths.unsqueeze(1);
  b.source.features[synmt::kSourceFeatureParentFirst] =
      (position + torch::arange(1, B + 1, torch::kInt64).unsqueeze(1)).remainder(length) * (position < length).to(torch::kInt64);
  auto before = base->forward(b.source, b.tgt_in).log_probs;
  auto out = model->forward(b.source, b.tgt_in);
  EXPECT_TRUE(torch::equal(before, out.log_probs));  // bias 0: the baseline bit for bit
  ASSERT_TRUE(out.aux_losses.count("parent_attention"));
  EXPECT_GT(out.aux_losses["parent_attention"].item<double>(), 0.0);
  {
    torch::NoGradGuard no_grad;
    model->named_parameters()["score_modifier_0.bias"].fill_(5.0);
  }
  auto after = model->forward(b.source, b.tgt_in);
  EXPECT_FALSE(torch::allclose(before, after.log_probs, 1e-3, 1e-3));
  // attending to the parent got cheaper: the supervised head's loss fell
  EXPECT_LT(after.aux_losses["parent_attention"].item<double>(), out.aux_losses["parent_attention"].item<double>());
  auto bad = syntax_config;
  bad["options"]["score_modifiers"][0]["layer"] = 2;
  EXPECT_THROW(synmt::TransformerModel(synmt::TransformerOptions::from_json(bad["options"])), synmt::ConfigError);
  bad["options"]["score_modifiers"][0] = {{"kind", "no_such_kind"}};
  EXPECT_THROW(synmt::TransformerOptions::from_json(bad["options"]), synmt::ConfigError);
}

// label_embedding overwrites the last dims of the token embedding: the label changes the output,
// the inventory size comes from the options, and a batch without labels is refused.
TEST(Transformer, LabelEmbeddingInputFromOptions) {
  auto config = tiny_transformer();
  config["options"]["embedding_inputs"] = {{{"kind", "label_embedding"}, {"dim", 4}}};
  config["options"]["src_labels"] = 6;
  torch::manual_seed(5);
  auto model = std::make_shared<synmt::TransformerModel>(synmt::TransformerOptions::from_json(config["options"]));
  model->eval();
  auto data = copy_task(8);
  synmt::BatchIterator it(data, {});
  auto b = it.make_batch({2, 3});
  const int64_t B = 2, S = b.source.tokens.size(1);
  EXPECT_THROW(model->forward(b.source, b.tgt_in), synmt::ConfigError);
  b.source.features[synmt::kSourceFeatureLabel] = torch::ones({B, S}, torch::kInt64);
  auto one = model->forward(b.source, b.tgt_in).log_probs;
  b.source.features[synmt::kSourceFeatureLabel] = torch::full({B, S}, 5, torch::kInt64);
  EXPECT_FALSE(torch::allclose(one, model->forward(b.source, b.tgt_in).log_probs, 1e-4, 1e-4));
  config["options"]["src_labels"] = 0;
  EXPECT_THROW(synmt::TransformerModel(synmt::TransformerOptions::from_json(config["options"])), synmt::ConfigError);
}

// The module itself: the first D - dim dimensions of the embedding pass unchanged, the last dim are
// the label's row of a table sized by the inventory (Sennrich & Haddow's overwrite, not a sum).
TEST(Transformer, LabelEmbeddingOverwritesTheLastDims) {
  torch::manual_seed(3);
  synmt::SyntaxModuleSizes sizes;
  sizes.model_dim = 16;
  sizes.src_labels = 6;
  auto module = synmt::make_embedding_input({{"kind", "label_embedding"}, {"dim", 4}}, sizes);
  const auto params = module->named_parameters();
  ASSERT_EQ(params.size(), 1u);
  const auto table = params[0].value();
  EXPECT_EQ(table.sizes(), (std::vector<int64_t>{6, 4}));
  synmt::SourceInput input;
  const auto labels = torch::tensor({{1, 5, 0}}, torch::kInt64);
  input.features[synmt::kSourceFeatureLabel] = labels;
  const auto embedded = torch::randn({1, 3, 16});
  const auto out = module->apply(embedded, synmt::SeamContext{input, nullptr});
  ASSERT_EQ(out.sizes(), embedded.sizes());
  EXPECT_TRUE(torch::equal(out.narrow(2, 0, 12), embedded.narrow(2, 0, 12)));
  for (int64_t t = 0; t < 3; ++t)
    EXPECT_TRUE(torch::equal(out[0][t].narrow(0, 12, 4), table[labels[0][t].item<int64_t>()])) << "token " << t;
}

// The module itself: the bias lands on the chosen head only, at each token's own parent (each
// sentence reads its own row of parents), and the loss is the cross-entropy of that head's scores
// towards the parents over the real tokens and keys only: with scores 0 and bias 5, a row of n
// real keys gives -log p(parent) = log(1 + (n - 1) e^-5).
TEST(Transformer, ParentBiasBiasesTheChosenHeadAtEachSentencesParents) {
  synmt::SyntaxModuleSizes sizes;
  sizes.model_dim = 32;
  sizes.heads = 4;
  sizes.encoder_layers = 2;
  auto module = synmt::make_score_modifier({{"kind", "parent_bias"}, {"layer", 1}, {"heads", {3}}, {"loss", true}}, sizes);
  {
    torch::NoGradGuard no_grad;
    module->named_parameters()["bias"].fill_(5.0);
  }
  synmt::SourceInput input;
  input.lengths = torch::tensor({5, 3}, torch::kInt64);
  const auto parents = torch::tensor({{1, 2, 2, 2, 3}, {2, 2, 2, 0, 0}}, torch::kInt64);
  input.features[synmt::kSourceFeatureParentFirst] = parents;
  synmt::ModelOutput output;
  const auto out = module->modify(torch::zeros({2, 4, 5, 5}), torch::zeros({2, 5, 32}), synmt::SeamContext{input, &output});
  EXPECT_TRUE(torch::equal(out.select(1, 3), 5.0 * torch::one_hot(parents, 5).to(torch::kFloat32)));
  EXPECT_EQ(out.narrow(1, 0, 3).abs().sum().item<double>(), 0.0);
  ASSERT_TRUE(output.aux_losses.count("parent_attention"));
  const double expected = 5 * std::log1p(4 * std::exp(-5.0)) + 3 * std::log1p(2 * std::exp(-5.0));
  EXPECT_NEAR(output.aux_losses["parent_attention"].item<double>(), expected, 1e-5);
}

TEST(Transformer, TrainingStepsReduceLoss) {
  torch::manual_seed(0);
  auto model = synmt::create_model(tiny_transformer());
  auto data = copy_task(32);
  synmt::BatchIterator it(data, {});
  auto b = it.make_batch({0, 1, 2, 3, 4, 5, 6, 7});
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(3e-3));
  model->eval();
  double first = synmt::label_smoothed_nll(model->forward(b.source, b.tgt_in).log_probs, b.tgt_out, 0.0, 0).nll_sum;
  model->train();
  for (int s = 0; s < 60; ++s) {
    opt.zero_grad();
    auto v = synmt::label_smoothed_nll(model->forward(b.source, b.tgt_in).log_probs, b.tgt_out, 0.1, 0);
    (v.loss / v.tokens).backward();
    opt.step();
  }
  model->eval();
  double after = synmt::label_smoothed_nll(model->forward(b.source, b.tgt_in).log_probs, b.tgt_out, 0.0, 0).nll_sum;
  EXPECT_LT(after, 0.5 * first);
}
