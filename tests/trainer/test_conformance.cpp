// The conformance suite: every registered architecture preset, shrunk by its family's `tiny`
// options, on every available device (CPU always, CUDA when present), must keep the model contract.
// A family added later passes it without adding code here; source features a preset reads are
// synthesised (parents, labels, POS, word indices).
#include <gtest/gtest.h>

#include <torch/cuda.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "trainer/data/batches.h"
#include "trainer/decode/beam_search.h"
#include "trainer/models/registry.h"
#include "trainer/models/checkpoint.h"
#include "trainer/train/criterion.h"
#include "tests/trainer/tiny_models.h"

namespace {

constexpr int64_t kVocab = 20, kLabels = 6, kUpos = 5;

struct Case {
  std::string arch;
  std::string device;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.arch << " on " << c.device; }

const std::string kEveryPreset = "every_preset";

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  std::vector<std::string> devices{"cpu"};
  if (torch::cuda::is_available()) devices.push_back("cuda");
  for (const auto& a : synmt::architectures())
    for (const auto& d : devices) cases.push_back({a.name, d});
  // a device that is absent here gets one case that ctest shows as skipped, not no case at all
  if (!torch::cuda::is_available()) cases.push_back({kEveryPreset, "cuda"});
  return cases;
}

nlohmann::json tiny_config(const std::string& arch) {
  const auto& preset = *std::find_if(synmt::architectures().begin(), synmt::architectures().end(),
                                     [&](const synmt::Architecture& a) { return a.name == arch; });
  auto options = synmt::model_family(preset.family).tiny;
  auto resolved = synmt::resolve_model_config({{"arch", arch}, {"options", options}});
  auto& o = resolved["options"];
  o["src_vocab"] = kVocab;
  o["tgt_vocab"] = kVocab;
  if (o.contains("src_labels")) o["src_labels"] = kLabels;
  if (o.contains("src_upos")) o["src_upos"] = kUpos;
  return resolved;
}

// Copy-task data with every feature a model may read: a right-branching chain of parents, labels
// and POS cycling through their inventories, one word per token.
synmt::ParallelData featured_data(int n) {
  auto d = synmt::test::copy_task(n);
  for (std::size_t i = 0; i < d.size(); ++i) {
    const int64_t len = d.src_offsets[i + 1] - d.src_offsets[i];
    for (int64_t k = 0; k < len; ++k) {
      const int64_t parent = k == 0 ? 0 : k - 1;
      d.src_parent_middle.push_back(static_cast<float>(parent));
      d.src_parent_first.push_back(static_cast<int32_t>(parent));
      d.src_label.push_back(static_cast<int32_t>(1 + (i + k) % (kLabels - 1)));
      d.src_upos.push_back(static_cast<int32_t>(1 + (i * 3 + k) % (kUpos - 1)));
      d.src_word.push_back(static_cast<int32_t>(k));
    }
  }
  return d;
}

class Conformance : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    if (GetParam().arch == kEveryPreset) GTEST_SKIP() << "no " << GetParam().device << " device here: every preset's " << GetParam().device << " cases are skipped";
    config_ = tiny_config(GetParam().arch);
    device_ = torch::Device(GetParam().device);
    torch::manual_seed(11);
    model_ = synmt::create_model(config_);
    model_->to(device_);
    model_->eval();
    data_ = featured_data(12);
  }
  synmt::Batch batch(const std::vector<int64_t>& ids) const { return synmt::to_device(synmt::make_data_batch(data_, ids), device_); }
  torch::Tensor log_probs(const synmt::Batch& b) { return model_->forward(b.source, b.tgt_in).log_probs.to(torch::kCPU); }

  nlohmann::json config_;
  torch::Device device_{torch::kCPU};
  std::shared_ptr<synmt::Seq2SeqModel> model_;
  synmt::ParallelData data_;
};

TEST_P(Conformance, LogProbabilitiesNormalise) {
  torch::NoGradGuard no_grad;
  auto lp = log_probs(batch({0, 1, 2, 3}));
  EXPECT_EQ(lp.size(2), kVocab);
  EXPECT_TRUE(torch::allclose(lp.exp().sum(-1), torch::ones({lp.size(0), lp.size(1)}), 1e-5, 1e-5));
}

TEST_P(Conformance, IncrementalStepsEqualTeacherForcing) {
  torch::NoGradGuard no_grad;
  auto b = batch({0, 1, 2, 3, 4});
  auto full = log_probs(b);
  auto state = model_->encode(b.source);
  for (int64_t t = 0; t < b.tgt_in.size(1); ++t) {
    auto step = model_->step(state, b.tgt_in.select(1, t)).to(torch::kCPU);
    EXPECT_TRUE(torch::allclose(step, full.select(1, t), 1e-5, 1e-5)) << "step " << t << ": max difference "
                                                                      << (step - full.select(1, t)).abs().max().item<double>();
  }
}

TEST_P(Conformance, SentenceAloneEqualsPaddedBatchAndPermutationPermutes) {
  torch::NoGradGuard no_grad;
  const std::vector<int64_t> ids{0, 1, 2, 3, 5};  // lengths 3..6: padding on both sides
  auto together = log_probs(batch(ids));
  for (std::size_t i = 0; i < ids.size(); ++i) {
    auto alone = log_probs(batch({ids[i]}));
    const int64_t T = alone.size(1);
    EXPECT_TRUE(torch::allclose(alone[0], together[static_cast<int64_t>(i)].narrow(0, 0, T), 1e-5, 1e-5)) << "sentence " << ids[i];
  }
  std::vector<int64_t> reversed(ids.rbegin(), ids.rend());
  auto permuted = log_probs(batch(reversed));
  for (std::size_t i = 0; i < ids.size(); ++i)
    EXPECT_TRUE(torch::allclose(permuted[static_cast<int64_t>(ids.size() - 1 - i)], together[static_cast<int64_t>(i)], 1e-5, 1e-5));
}

TEST_P(Conformance, CheckpointReloadReproducesOutputsExactly) {
  torch::NoGradGuard no_grad;
  std::filesystem::create_directories(SYNMT_TEST_TMP);
  const std::string path = std::string(SYNMT_TEST_TMP) + "/conformance." + GetParam().arch + "." + GetParam().device + ".pt";
  // parameters moved off their initial values, so that a rebuilt-but-not-loaded module would differ
  for (auto& p : model_->parameters()) p.add_(0.01 * torch::randn_like(p));
  synmt::save_checkpoint(path, *model_, {{"model", config_}, {"vocab", {{"src_sha256", "a"}, {"tgt_sha256", "b"}}}});
  auto loaded = synmt::load_checkpoint(path);
  loaded.model->to(device_);
  loaded.model->eval();
  auto b = batch({0, 1, 2, 3});
  EXPECT_TRUE(torch::equal(log_probs(b), loaded.model->forward(b.source, b.tgt_in).log_probs.to(torch::kCPU)));
  EXPECT_EQ(loaded.model->required_features(), model_->required_features());
}

TEST_P(Conformance, BeamOneEqualsGreedy) {
  torch::NoGradGuard no_grad;
  auto b = batch({0, 1, 2, 3, 4, 5});
  synmt::SearchOptions o;
  o.beam_size = 1;
  o.length_penalty = 0;
  auto beam = synmt::beam_search(*model_, b, o);
  auto greedy = synmt::greedy_search(*model_, b, o);
  ASSERT_EQ(beam.size(), greedy.size());
  for (std::size_t i = 0; i < beam.size(); ++i) EXPECT_EQ(beam[i].front().tokens, greedy[i]) << "sentence " << i;
}

TEST_P(Conformance, OneTokenSentencesGiveFiniteLossAndGradients) {
  synmt::ParallelData d;
  d.add({5}, {6});
  d.add({7}, {8});
  for (int k = 0; k < 2; ++k) {  // each a root attached to itself
    d.src_parent_middle.push_back(0);
    d.src_parent_first.push_back(0);
    d.src_label.push_back(1);
    d.src_upos.push_back(1);
    d.src_word.push_back(0);
  }
  model_->train();
  auto b = synmt::to_device(synmt::make_data_batch(d, {0, 1}), device_);
  synmt::Criterion criterion(synmt::CriterionOptions{0.1, {}});
  auto terms = criterion(model_->forward(b.source, b.tgt_in), b.tgt_out, 0);
  EXPECT_TRUE(std::isfinite(terms.objective.item<double>()));
  terms.objective.backward();
  int with_gradient = 0;  // the check is not vacuous: the loss reaches the parameters
  for (const auto& p : model_->named_parameters())
    if (p.value().grad().defined()) {
      ++with_gradient;
      EXPECT_TRUE(torch::isfinite(p.value().grad()).all().item<bool>()) << p.key();
    }
  EXPECT_GT(with_gradient, 0);
}

TEST_P(Conformance, AnalysisTensorsFollowTheirDeclaredAxes) {
  torch::NoGradGuard no_grad;
  auto b = batch({0, 1, 2, 5});
  synmt::ForwardRequest request;
  request.analysis = true;
  auto out = model_->forward(b.source, b.tgt_in, request);
  EXPECT_TRUE(torch::equal(out.log_probs.to(torch::kCPU), log_probs(b)));  // analysis changes nothing
  for (const auto& [name, axes] : model_->analysis_axes()) {
    ASSERT_TRUE(out.analysis.count(name)) << name;
    const auto& t = out.analysis.at(name);
    std::istringstream in(axes);
    std::vector<std::string> dims;
    for (std::string a; in >> a;) dims.push_back(a);
    ASSERT_EQ(t.dim(), static_cast<int64_t>(dims.size()) + 1) << name;
    EXPECT_EQ(t.size(0), 4) << name;
    for (std::size_t a = 0; a < dims.size(); ++a) {
      const int64_t expected = dims[a] == "src" ? b.source.tokens.size(1) : dims[a] == "tgt" ? b.tgt_in.size(1) : std::stoll(dims[a]);
      EXPECT_EQ(t.size(static_cast<int64_t>(a) + 1), expected) << name << " axis " << a;
    }
    EXPECT_TRUE(torch::isfinite(t).all().item<bool>()) << name;
  }
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) { return info.param.arch + "_" + info.param.device; }

}  // namespace

INSTANTIATE_TEST_SUITE_P(EveryPreset, Conformance, ::testing::ValuesIn(all_cases()), case_name);
