// The latent-graph family (Bastings et al. 2018): the Concrete relaxation's limits and its
// Gumbel-max property, exact zeros on the diagonal and padding, one-token sentences, the GCN layer
// (empty graph = the baseline layer bit for bit; a hand-computed 3-node example), the temperature
// schedule and exact resume of the noise.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/error.h"
#include "trainer/data/batches.h"
#include "trainer/models/checkpoint.h"
#include "trainer/models/latent_graphs/latent_graphs.h"
#include "trainer/models/registry.h"
#include "trainer/nn/gcn.h"
#include "trainer/nn/latent_graph.h"
#include "tests/trainer/tiny_models.h"

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// lambda for sentences of lengths 4 and 2 in a batch of 4 positions, diagonal and padding -inf
torch::Tensor sample_lambda() {
  torch::manual_seed(2);
  auto lambda = torch::randn({2, 4, 4});
  auto lengths = torch::tensor({4, 2});
  auto real = torch::arange(4).unsqueeze(0) < lengths.unsqueeze(1);
  auto ok = real.unsqueeze(2).logical_and(real.unsqueeze(1)).logical_and(torch::eye(4).to(torch::kBool).logical_not().unsqueeze(0));
  return lambda.masked_fill(ok.logical_not(), kNegInf);
}
}  // namespace

// Eq. 2-3: lambda_ik = q_i . k_k / sqrt(d_K) with q = W_Q s, k = W_K s (no biases) for i != k.
TEST(LatentGraph, PotentialsAreScaledDotProductsOfUnbiasedProjections) {
  torch::manual_seed(6);
  synmt::LatentGraph g(synmt::LatentGraphOptions{6, 4, 5});
  // the submodules are private: reached by their registered names, as a checkpoint would name them
  auto children = g->named_children();
  auto* query = children["query"]->as<torch::nn::Linear>();
  auto* key = children["key"]->as<torch::nn::Linear>();
  auto* lstm = children["lstm"]->as<synmt::BiLstmEncoder>();
  ASSERT_TRUE(query != nullptr && key != nullptr && lstm != nullptr);
  EXPECT_FALSE(query->options.bias());
  EXPECT_FALSE(key->options.bias());
  EXPECT_EQ(g->named_parameters().find("query.bias"), nullptr);
  torch::NoGradGuard no_grad;
  auto x = torch::randn({1, 3, 6});
  auto lengths = torch::tensor({3});
  auto lambda = g(x, lengths);
  auto h = lstm->forward(x, lengths);
  auto want = torch::matmul(torch::matmul(h, query->weight.t()), torch::matmul(h, key->weight.t()).transpose(1, 2)) /
              std::sqrt(5.0);
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t k = 0; k < 3; ++k)
      if (i != k) EXPECT_NEAR(lambda[0][i][k].item<double>(), want[0][i][k].item<double>(), 1e-5);
      else EXPECT_EQ(lambda[0][i][k].item<double>(), kNegInf);
}

TEST(LatentGraph, TemperatureLimitsAndExactZeros) {
  auto lambda = sample_lambda();
  auto cold = synmt::concrete_graph(lambda, 1e-4, false);
  auto one_hot = torch::zeros_like(cold);
  auto masked_argmax = lambda.argmax(-1, true);
  one_hot.scatter_(2, masked_argmax, 1.0);
  auto real_rows = torch::tensor({{1, 1, 1, 1}, {1, 1, 0, 0}}).to(torch::kBool).unsqueeze(2);
  EXPECT_TRUE(torch::allclose(cold, one_hot * real_rows, 1e-6, 1e-6));  // tau -> 0: one-hot at argmax
  auto hot = synmt::concrete_graph(lambda, 1e6, false);
  EXPECT_TRUE(torch::allclose(hot[0], (torch::ones({4, 4}) - torch::eye(4)) / 3.0, 1e-5, 1e-5));  // tau -> inf: uniform over k != i
  EXPECT_TRUE(torch::allclose(hot[1].narrow(0, 0, 2).narrow(1, 0, 2), torch::tensor({{0.f, 1.f}, {1.f, 0.f}})));
  for (const auto& a : {cold, hot, synmt::concrete_graph(lambda, 0.5, true)}) {
    EXPECT_EQ(a.diagonal(0, 1, 2).abs().sum().item<double>(), 0.0);      // never its own head
    EXPECT_EQ(a[1].narrow(1, 2, 2).abs().sum().item<double>(), 0.0);     // pads head nothing
    EXPECT_EQ(a[1].narrow(0, 2, 2).abs().sum().item<double>(), 0.0);     // pad rows are empty
    EXPECT_TRUE(torch::isfinite(a).all().item<bool>());
  }
}

// A one-token sentence has no admissible head: its row is 0, and gradients stay finite.
TEST(LatentGraph, OneTokenSentenceIsGuarded) {
  synmt::LatentGraph graph(synmt::LatentGraphOptions{6, 4, 8});
  auto x = torch::randn({2, 3, 6}, torch::requires_grad());
  auto lambda = graph(x, torch::tensor({1, 3}));
  auto a = synmt::concrete_graph(lambda, 2.0, true);
  EXPECT_EQ(a[0].abs().sum().item<double>(), 0.0);
  EXPECT_TRUE(torch::allclose(a[1].sum(-1), torch::ones({3})));
  a.pow(2).sum().backward();
  EXPECT_TRUE(torch::isfinite(x.grad()).all().item<bool>());
  for (auto& p : graph->parameters()) EXPECT_TRUE(torch::isfinite(p.grad()).all().item<bool>());
}

// Gumbel-max: argmax_k (lambda_ik + g_ik) is distributed as softmax(lambda_i); so are the argmaxes
// of the noisy Concrete sample at any temperature (dividing by tau keeps the argmax).
TEST(LatentGraph, ArgmaxFrequenciesMatchTheSoftmax) {
  torch::manual_seed(5);
  auto lambda = torch::tensor({{kNegInf, 0.5f, -1.0f, 1.5f}}).unsqueeze(0).expand({10000, 1, 4}).contiguous();
  auto a = synmt::concrete_graph(lambda, 0.7, true);
  auto counts = torch::zeros({4});
  counts.index_add_(0, a.argmax(-1).view({-1}), torch::ones({10000}));
  auto freq = counts / 10000.0;
  auto expected = torch::softmax(lambda[0][0], -1);
  EXPECT_TRUE(torch::allclose(freq, expected, 0.0, 0.02)) << freq << expected;
}

// GCN: with an empty graph the layer equals the dense baseline layer with the same weights, bit for
// bit; and a hand-computed 3-node example.
TEST(Gcn, EmptyGraphIsTheBaselineAndAHandExample) {
  torch::manual_seed(3);
  synmt::GcnLayer gcn(synmt::GcnOptions{4, true, false, false});
  synmt::GcnLayer dense(synmt::GcnOptions{4, false, false, false});
  {
    torch::NoGradGuard no_grad;
    dense->named_parameters()["self_loop.weight"].copy_(gcn->named_parameters()["self_loop.weight"]);
    dense->named_parameters()["self_loop.bias"].copy_(gcn->named_parameters()["self_loop.bias"]);
  }
  auto s = torch::randn({2, 3, 4});
  EXPECT_TRUE(torch::equal(gcn(s, torch::zeros({2, 3, 3})), dense(s)));

  // 1-dim states: W_self = 1, b = 0, W_head = 2, W_dep = 3; node 0 is the head of nodes 1 and 2
  synmt::GcnLayer g(synmt::GcnOptions{1, true, false, false});
  {
    torch::NoGradGuard no_grad;
    auto p = g->named_parameters();
    p["self_loop.weight"].fill_(1.0);
    p["self_loop.bias"].fill_(0.0);
    p["head.weight"].fill_(2.0);
    p["dep.weight"].fill_(3.0);
  }
  auto states = torch::tensor({1.f, -2.f, 0.5f}).view({1, 3, 1});
  auto a = torch::tensor({{0.f, 0.f, 0.f}, {1.f, 0.f, 0.f}, {1.f, 0.f, 0.f}}).unsqueeze(0);
  // node 0: 1 + relu(1 + 0 + 3 * (-2 + 0.5)) = 1 + relu(-3.5) = 1
  // node 1: -2 + relu(-2 + 2 * 1) = -2 + 0 = -2
  // node 2: 0.5 + relu(0.5 + 2 * 1) = 0.5 + 2.5 = 3
  EXPECT_TRUE(torch::allclose(g(states, a).view({3}), torch::tensor({1.f, -2.f, 3.f})));
}

TEST(LatentGraphs, TemperatureScheduleAndItsBuffer) {
  synmt::LatentGraphsOptions o;
  EXPECT_DOUBLE_EQ(synmt::latent_graph_temperature(o, 0, 100), 2.0);
  EXPECT_DOUBLE_EQ(synmt::latent_graph_temperature(o, 99, 100), 2.0);
  EXPECT_DOUBLE_EQ(synmt::latent_graph_temperature(o, 100, 100), 2.0 * 0.99);
  EXPECT_DOUBLE_EQ(synmt::latent_graph_temperature(o, 1050, 100), 2.0 * std::pow(0.99, 10));
  o.tau_interval = 7;
  EXPECT_DOUBLE_EQ(synmt::latent_graph_temperature(o, 21, 100), 2.0 * std::pow(0.99, 3));
  auto config = synmt::test::tiny_arch("lg_graph_rnn");
  auto model = std::dynamic_pointer_cast<synmt::LatentGraphsModel>(synmt::create_model(config));
  ASSERT_TRUE(model);
  synmt::TrainingContext c;
  c.update = 250;
  c.updates_per_epoch = 100;
  model->set_training_context(c);
  EXPECT_DOUBLE_EQ(model->temperature(), 2.0 * 0.99 * 0.99);
  EXPECT_TRUE(model->named_buffers().contains("tau"));  // kept in checkpoints
}

// The noise comes from the default generator: the same generator state gives the same graph (the
// trainer checkpoints that state, so a resumed run draws what an uninterrupted one would).
TEST(LatentGraphs, NoiseFollowsTheGeneratorState) {
  auto config = synmt::test::tiny_arch("lg_graph_cnn", {{"dropout", 0.0}});  // differences come from the graph noise only
  torch::manual_seed(1);
  auto model = synmt::create_model(config);
  model->train();
  auto data = synmt::test::copy_task(6);
  synmt::BatchIterator it(data, {});
  auto b = it.make_batch({0, 1, 2, 3});
  synmt::ForwardRequest r;
  r.analysis = true;
  torch::manual_seed(42);
  auto first = model->forward(b.source, b.tgt_in, r).analysis["graph"];
  auto second = model->forward(b.source, b.tgt_in, r).analysis["graph"];
  torch::manual_seed(42);
  auto again = model->forward(b.source, b.tgt_in, r).analysis["graph"];
  EXPECT_TRUE(torch::equal(first, again));
  EXPECT_FALSE(torch::equal(first, second));
  model->eval();
  auto test_a = model->forward(b.source, b.tgt_in, r).analysis["graph"];
  EXPECT_TRUE(torch::equal(test_a, model->forward(b.source, b.tgt_in, r).analysis["graph"]));  // no noise at test time
}

// Bastings et al. §3: the Emb and the CNN encoders both add position encodings ("and again add
// position encodings" for the convolutions). With the convolutions zeroed, the CNN's states are
// exactly the sqrt(d)-scaled embeddings plus the sinusoids, as the Emb encoder's; without the positions they would
// be the bare embeddings (the code before this test had that), identical for a repeated token.
TEST(LatentGraphs, CnnAndEmbEncodersAddPositions) {
  for (const char* arch : {"lg_baseline_cnn", "lg_baseline_emb"}) {
    SCOPED_TRACE(arch);
    torch::manual_seed(3);
    // the ReLU form with zeroed convolutions is the identity, so the CNN's states are its input
    auto model = std::dynamic_pointer_cast<synmt::LatentGraphsModel>(
        synmt::create_model(synmt::test::tiny_arch(arch, {{"cnn_activation", "relu"}})));
    ASSERT_TRUE(model);
    model->eval();
    torch::NoGradGuard no_grad;
    for (auto& item : model->named_parameters())
      if (item.key().rfind("cnn.", 0) == 0) item.value().zero_();
    synmt::SourceInput in;
    in.tokens = torch::full({1, 7}, 5, torch::kInt64);  // one token repeated
    in.lengths = torch::tensor({7});
    auto states = model->source_states(in);
    auto embedded = model->named_parameters()["src_embed.weight"][5].expand({1, 7, -1});
    const double scale = std::sqrt(static_cast<double>(embedded.size(2)));  // Vaswani et al.'s sqrt(d)
    EXPECT_TRUE(torch::allclose(states, synmt::add_sinusoidal_positions(embedded * scale, in.lengths), 1e-6, 1e-6));
    EXPECT_FALSE(torch::allclose(states, synmt::add_sinusoidal_positions(embedded, in.lengths), 1e-3, 1e-3));
    EXPECT_FALSE(torch::allclose(states[0][2], states[0][4]));  // interior positions differ by their position alone
  }
}

// embed_scale: none (the ablation of this repository's sqrt(d) reading) adds the positions to the bare
// embeddings; an unknown value is refused.
TEST(LatentGraphs, EmbedScaleNoneAddsPositionsToTheBareEmbeddings) {
  torch::manual_seed(3);
  auto model = std::dynamic_pointer_cast<synmt::LatentGraphsModel>(
      synmt::create_model(synmt::test::tiny_arch("lg_baseline_emb", {{"embed_scale", "none"}})));
  ASSERT_TRUE(model);
  model->eval();
  torch::NoGradGuard no_grad;
  synmt::SourceInput in;
  in.tokens = torch::tensor({{4, 5, 6, 5}}, torch::kInt64);
  in.lengths = torch::tensor({4});
  auto embedded = model->named_parameters()["src_embed.weight"].index_select(0, in.tokens[0]).unsqueeze(0);
  auto states = model->source_states(in);
  EXPECT_TRUE(torch::allclose(states, synmt::add_sinusoidal_positions(embedded, in.lengths), 1e-6, 1e-6));
  EXPECT_FALSE(torch::allclose(states, synmt::add_sinusoidal_positions(embedded * 4.0, in.lengths), 1e-3, 1e-3));
  EXPECT_THROW(synmt::create_model(synmt::test::tiny_arch("lg_baseline_emb", {{"embed_scale", "sqrt"}})), synmt::ConfigError);
}

// The CNN encoder's two forms, each against its formula written out with the layers' own weights:
// relu x + ReLU(conv(x)) (the default, what checkpoints without the option were trained with) and
// tanh: tanh(conv(x)), then tanh(x + conv(x)) (Gehring et al.'s encoder, the CNN presets'); padding stays zero, tanh's
// states are bounded; an unknown form is refused.
TEST(LatentGraphs, CnnEncoderFormsFollowTheirFormulas) {
  for (const char* activation : {"relu", "tanh"}) {
    SCOPED_TRACE(activation);
    torch::manual_seed(4);
    synmt::CnnEncoder cnn(synmt::CnnEncoderOptions{6, 2, 3, 0.0, activation});
    cnn->eval();
    torch::NoGradGuard no_grad;
    auto x = 3.0 * torch::randn({2, 5, 6});
    auto lengths = torch::tensor({5, 3});
    auto keep = (torch::arange(5).unsqueeze(0) < lengths.unsqueeze(1)).unsqueeze(2).to(torch::kFloat);
    auto expected = x * keep;
    auto params = cnn->named_parameters();
    for (int l = 0; l < 2; ++l) {
      const std::string name = "conv_" + std::to_string(l);
      auto y = torch::conv1d(expected.transpose(1, 2), params[name + ".weight"], params[name + ".bias"], 1, 1).transpose(1, 2);
      if (std::string(activation) == "tanh")
        expected = torch::tanh(l == 0 ? y : expected + y) * keep;  // no residual into the first layer's output
      else
        expected = (expected + torch::relu(y)) * keep;
    }
    auto states = cnn(x, lengths);
    EXPECT_TRUE(torch::allclose(states, expected, 1e-5, 1e-5));
    EXPECT_EQ(states[1].slice(0, 3).abs().max().item<float>(), 0.0f);
    if (std::string(activation) == "tanh") EXPECT_LT(states.abs().max().item<float>(), 1.0f);
  }
  EXPECT_THROW(synmt::CnnEncoder(synmt::CnnEncoderOptions{6, 2, 3, 0.0, "gelu"}), synmt::ConfigError);
  EXPECT_THROW(synmt::create_model(synmt::test::tiny_arch("lg_baseline_cnn", {{"cnn_activation", "sigmoid"}})), synmt::ConfigError);
  for (const char* arch : {"lg_baseline_cnn", "lg_graph_cnn"})  // the paper's rows: the cited encoder's tanh
    EXPECT_EQ(synmt::resolve_model_config({{"arch", arch}})["options"]["cnn_activation"], "tanh") << arch;
}

// The output layer is the paper's own matrix unless tying is asked for.
TEST(LatentGraphs, OutputLayerIsUntiedByDefault) {
  auto untied = synmt::create_model(synmt::test::tiny_arch("lg_graph_rnn"));
  EXPECT_TRUE(untied->named_parameters().contains("output_proj.weight"));
  auto tied = synmt::create_model(synmt::test::tiny_arch("lg_graph_rnn", {{"tie_target_embeddings", true}}));
  EXPECT_FALSE(tied->named_parameters().contains("output_proj.weight"));
}

// test_graph probes, set when a trained model is loaded for decoding (synmt-translate
// --model-option): `none` gives no edges (the GCN's self term: the graph component no longer
// matters), `uniform` every other token of the sentence an equal head (padding and the diagonal
// stay 0); training ignores them. An override of an option the model lacks, of a value outside the
// list, or one that changes the parameters' shapes is refused.
TEST(LatentGraphs, TestGraphProbesAreSetAtDecoding) {
  auto config = synmt::test::tiny_arch("lg_graph_rnn", {{"dropout", 0.0}});
  torch::manual_seed(4);
  auto trained = synmt::create_model(config);
  const std::string path = std::string(SYNMT_TEST_TMP) + "/lg_probe.pt";
  synmt::save_checkpoint(path, *trained, {{"model", config}, {"vocab", {{"src_sha256", "a"}, {"tgt_sha256", "b"}}}});
  auto data = synmt::test::copy_task(4);  // lengths 3, 4, 5, 6
  synmt::BatchIterator it(data, {});
  auto b = it.make_batch({0, 1, 2, 3});
  synmt::ForwardRequest r;
  r.analysis = true;
  torch::NoGradGuard no_grad;
  // the model loaded with a probe, and its output with the graph component's parameters perturbed
  auto run = [&](const std::string& probe, bool perturb) {
    auto loaded = synmt::load_checkpoint(path, {{"test_graph", probe}});
    EXPECT_EQ(loaded.config["model"]["options"]["test_graph"], probe);
    if (perturb)
      for (auto& item : loaded.model->named_parameters())
        if (item.key().rfind("graph.", 0) == 0) item.value().add_(torch::randn_like(item.value()));
    return loaded.model->forward(b.source, b.tgt_in, r);
  };
  auto learned = run("tau", false);
  EXPECT_FALSE(torch::allclose(learned.log_probs, run("tau", true).log_probs, 1e-5, 1e-6));  // the graph matters
  auto none = run("none", false);
  EXPECT_TRUE(torch::equal(none.analysis["graph"], torch::zeros_like(none.analysis["graph"])));
  EXPECT_TRUE(torch::equal(none.log_probs, run("none", true).log_probs));
  EXPECT_FALSE(torch::allclose(none.log_probs, learned.log_probs, 1e-5, 1e-6));
  auto uniform = run("uniform", false);
  EXPECT_TRUE(torch::allclose(uniform.log_probs, run("uniform", true).log_probs, 1e-6, 1e-7));
  const auto a = uniform.analysis["graph"];
  for (int64_t s = 0; s < 4; ++s) {
    const int64_t n = 3 + s, S = a.size(1);
    for (int64_t i = 0; i < S; ++i)
      for (int64_t k = 0; k < S; ++k)
        EXPECT_NEAR(a[s][i][k].item<double>(), i < n && k < n && i != k ? 1.0 / static_cast<double>(n - 1) : 0.0, 1e-6)
            << s << " " << i << " " << k;
  }
  // training samples its graph whatever the probe
  auto loaded = synmt::load_checkpoint(path, {{"test_graph", "none"}});
  loaded.model->train();
  auto sampled = loaded.model->forward(b.source, b.tgt_in, r).analysis["graph"];
  EXPECT_GT(sampled.sum().item<double>(), 1.0);
  // refusals, each naming what was wrong
  auto error_of = [&](const nlohmann::json& overrides) -> std::string {
    try {
      synmt::load_checkpoint(path, overrides);
    } catch (const std::runtime_error& e) {  // InputError naming the checkpoint, or ConfigError
      return e.what();
    }
    return "(loaded)";
  };
  EXPECT_NE(error_of({{"no_such_option", 1}}).find("'no_such_option': not an option"), std::string::npos) << error_of({{"no_such_option", 1}});
  EXPECT_NE(error_of({{"test_graph", "random"}}).find("tau | plain | uniform | none"), std::string::npos);
  // an override is the user's error: not blamed on a stale build as a bad stored configuration is
  for (const auto& bad : {nlohmann::json{{"no_such_option", 1}}, nlohmann::json{{"test_graph", "random"}}}) {
    const auto message = error_of(bad);
    EXPECT_EQ(message.find("rebuild every tool"), std::string::npos) << message;
    EXPECT_NE(message.find("lg_probe.pt"), std::string::npos) << message;
  }
  EXPECT_NE(error_of({{"no_such_option", 1}}).find("its options: "), std::string::npos);
  EXPECT_NE(error_of({{"test_graph", "random"}}).find("model option overrides {\"test_graph\":\"random\"}"), std::string::npos)
      << error_of({{"test_graph", "random"}});
  const auto resized = error_of({{"embed_dim", 12}});  // the model has 256
  EXPECT_NE(resized.find("do not match the model described in the checkpoint with the option overrides"), std::string::npos) << resized;
  EXPECT_NE(resized.find("is stored as [20, 256], the model has [20, 12]"), std::string::npos) << resized;
}
