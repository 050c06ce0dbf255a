#include <gtest/gtest.h>

#include <cmath>

#include <stdexcept>

#include "core/error.h"
#include "core/special_tokens.h"

#include "trainer/data/batches.h"
#include "trainer/decode/beam_search.h"
#include "trainer/models/registry.h"

namespace {
std::shared_ptr<synmt::Seq2SeqModel> random_model(int seed) {
  torch::manual_seed(seed);
  auto m = synmt::resolve_model_config({{"arch", "rnn_tiny"}});
  m["options"]["src_vocab"] = 30;
  m["options"]["tgt_vocab"] = 30;
  auto model = synmt::create_model(m);
  model->eval();
  return model;
}

// A random model's outputs rarely contain </s> (its logits are nearly flat), so a search over it
// would only see hypotheses cut at the length limit; a constant push towards </s> ends every one
// at once. This wrapper adds `bias` to the end symbol's logit after a previous token whose id is a
// multiple of 5 and subtracts it elsewhere, then renormalises: some hypotheses end with </s> at
// different steps and others run to the limit, so both paths of the search (and their scores)
// are exercised.
class EndBiased : public synmt::Seq2SeqModel {
 public:
  EndBiased(std::shared_ptr<synmt::Seq2SeqModel> inner, double bias) : inner_(std::move(inner)), bias_(bias) {}
  synmt::ModelOutput forward(const synmt::SourceInput&, const torch::Tensor&, const synmt::ForwardRequest&) override {
    throw std::logic_error("EndBiased only decodes");
  }
  synmt::DecodeState encode(const synmt::SourceInput& src) override { return inner_->encode(src); }
  torch::Tensor step(synmt::DecodeState& state, const torch::Tensor& prev) override {
    auto logits = inner_->step(state, prev).clone();
    const auto push = torch::where(prev.remainder(5).eq(0), bias_, -bias_).to(logits.dtype());
    logits.select(1, synmt::special::kEos).add_(push);
    return torch::log_softmax(logits, 1);
  }
  nlohmann::json describe() const override { return inner_->describe(); }
  std::set<std::string> required_features() const override { return inner_->required_features(); }

 private:
  std::shared_ptr<synmt::Seq2SeqModel> inner_;
  double bias_;
};
}  // namespace

// With outputs that end with </s> at different steps and outputs cut at the length limit
// (max_len_b words here, the sources being short).
TEST(BeamSearch, BeamOneEqualsGreedy) {
  int ended = 0, cut = 0;
  for (int seed = 0; seed < 5; ++seed) {
    EndBiased model(random_model(seed), 2.0);
    auto batch = synmt::make_source_batch({{5, 6, 7}, {8, 9, 10, 11, 12, 13}, {4}, {7, 7}});
    synmt::SearchOptions o;
    o.beam_size = 1;
    o.length_penalty = 0;
    o.max_len_a = 0.0;
    o.max_len_b = 6;
    auto beam = synmt::beam_search(model, batch, o);
    auto greedy = synmt::greedy_search(model, batch, o);
    ASSERT_EQ(beam.size(), greedy.size());
    for (std::size_t i = 0; i < beam.size(); ++i) {
      EXPECT_EQ(beam[i].front().tokens, greedy[i]) << "seed " << seed;
      (greedy[i].size() < 6 ? ended : cut) += 1;
    }
  }
  EXPECT_GT(ended, 0) << "no output ended with </s>";
  EXPECT_GT(cut, 0) << "no output reached the length limit";
}

TEST(BeamSearch, WiderBeamNeverScoresWorseAndRespectsMaxLength) {
  auto model = random_model(3);
  auto batch = synmt::make_source_batch({{5, 6, 7, 8}, {9, 10}});
  synmt::SearchOptions o;
  o.length_penalty = 0;
  o.max_len_a = 1.0;
  o.max_len_b = 2;
  o.beam_size = 1;
  auto b1 = synmt::beam_search(*model, batch, o);
  o.beam_size = 6;
  o.nbest = 3;
  auto b6 = synmt::beam_search(*model, batch, o);
  for (std::size_t i = 0; i < b1.size(); ++i) {
    EXPECT_GE(b6[i].front().score, b1[i].front().score - 1e-9);
    EXPECT_LE(b6[i].size(), 3u);
    for (std::size_t k = 1; k < b6[i].size(); ++k) EXPECT_GE(b6[i][k - 1].score, b6[i][k].score);
  }
  EXPECT_LE(b6[0].front().tokens.size(), 6u);  // 1.0 * 4 + 2
  EXPECT_LE(b6[1].front().tokens.size(), 4u);
}

// Every length norm ranks finished hypotheses by its own formula of log p and L_y = words + 1 (the
// end symbol counted, also for a hypothesis cut at the length limit: one length definition):
// gnmt ((5+L_y)/6)^alpha, fairseq L_y^alpha (Pascal's decoding), average L_y; an unknown norm is refused.
TEST(BeamSearch, LengthNormsScoreByTheirFormulas) {
  EndBiased model(random_model(5), 2.0);
  auto batch = synmt::make_source_batch({{5, 6, 7, 8}, {9, 10}});
  synmt::SearchOptions o;
  o.beam_size = 4;
  o.nbest = 4;
  o.length_penalty = 0.6;
  o.max_len_a = 0.0;  // a limit of 3 tokens: some hypotheses are cut there, which must score alike
  o.max_len_b = 3;
  int cut = 0, ended = 0;
  for (const std::string norm : {"gnmt", "fairseq", "average"}) {
    o.length_norm = norm;
    for (const auto& nbest : synmt::beam_search(model, batch, o)) {
      for (std::size_t k = 1; k < nbest.size(); ++k) EXPECT_GE(nbest[k - 1].score, nbest[k].score) << norm << ": n-best order";
      for (const auto& h : nbest) {
        (h.tokens.size() == 3 ? cut : ended) += 1;
        const double y = static_cast<double>(h.tokens.size()) + 1.0;
        const double expected = norm == "gnmt"      ? h.log_prob / std::pow((5.0 + y) / 6.0, 0.6)
                                : norm == "fairseq" ? h.log_prob / std::pow(y, 0.6)
                                                    : h.log_prob / y;
        EXPECT_NEAR(h.score, expected, 1e-9) << norm;
      }
    }
  }
  EXPECT_GT(cut, 0) << "no hypothesis reached the length limit: the cut case was not exercised";
  EXPECT_GT(ended, 0) << "no hypothesis ended with </s> before the limit: the ended case was not exercised";
  o.length_norm = "marian";
  EXPECT_THROW(synmt::beam_search(model, batch, o), synmt::ConfigError);
}
