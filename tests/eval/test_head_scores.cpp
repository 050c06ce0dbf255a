#include <gtest/gtest.h>

#include "tests/test_util.h"

#include <cmath>
#include <filesystem>
#include <limits>
#include <random>

#include "core/error.h"
#include "core/hdf5_file.h"
#include "core/ragged.h"
#include "eval/head_scores.h"

namespace {
std::string tmp(const std::string& name) { return synmt::test::tmp_path(name); }

// Word scores W (root scores in row 0) spread over the pieces of each word: every word pair's score
// is split at random over its piece pairs, every root score over the word's own piece pairs.
synmt::eval::SentenceHeadScores spread(const synmt::eval::ScoreMatrix& W, const std::vector<int>& pieces_per_word,
                                       std::mt19937& rng) {
  synmt::eval::SentenceHeadScores s;
  int p = 0;
  for (int k : pieces_per_word) {
    s.spans.emplace_back(p, p + k - 1);
    p += k;
  }
  s.pieces.assign(p, std::vector<double>(p, 0.0));
  std::uniform_real_distribution<double> u(0.0, 1.0);
  auto split = [&](double total, const std::vector<std::pair<int, int>>& cells) {
    std::vector<double> w(cells.size());
    double sum = 0;
    for (auto& x : w) sum += (x = u(rng) + 0.1);
    for (std::size_t c = 0; c < cells.size(); ++c) s.pieces[cells[c].first][cells[c].second] += total * w[c] / sum;
  };
  const int n = static_cast<int>(pieces_per_word.size());
  for (int K = 0; K < n; ++K)
    for (int L = 0; L < n; ++L) {
      std::vector<std::pair<int, int>> cells;
      if (K == L) {
        for (int u = s.spans[L].first; u <= s.spans[L].second; ++u)  // phi-hat's root: every pair inside the word
          for (int v = s.spans[L].first; v <= s.spans[L].second; ++v) cells.emplace_back(u, v);
        split(W[0][L + 1], cells);
      } else {
        for (int a = s.spans[K].first; a <= s.spans[K].second; ++a)
          for (int b = s.spans[L].first; b <= s.spans[L].second; ++b) cells.emplace_back(a, b);
        split(W[K + 1][L + 1], cells);
      }
    }
  return s;
}
}  // namespace

TEST(HeadScores, CollapseRecoversWordScoresForOneTwoAndThreePieceWords) {
  std::mt19937 rng(3);
  std::normal_distribution<double> g(0, 1);
  const std::vector<int> pieces = {1, 2, 3, 1, 2};
  const int n = static_cast<int>(pieces.size());
  synmt::eval::ScoreMatrix W(n + 1, std::vector<double>(n + 1, 0.0));
  for (int h = 0; h <= n; ++h)
    for (int d = 1; d <= n; ++d)
      if (h != d) W[h][d] = g(rng);
  auto s = spread(W, pieces, rng);
  auto back = synmt::eval::collapse_to_words(s.pieces, s.spans);
  for (int h = 0; h <= n; ++h)
    for (int d = 1; d <= n; ++d)
      if (h != d) EXPECT_NEAR(back[h][d], W[h][d], 1e-12) << h << "->" << d;
  EXPECT_EQ(synmt::eval::chu_liu_edmonds(back), synmt::eval::chu_liu_edmonds(W));
}

TEST(HeadScores, Hdf5RoundTripAndRefusals) {
  std::mt19937 rng(5);
  synmt::eval::ScoreMatrix W(4, std::vector<double>(4, 0.5));
  std::vector<synmt::eval::SentenceHeadScores> sents = {spread(W, {2, 1, 3}, rng), spread(W, {1, 1, 1}, rng)};
  synmt::eval::write_head_scores(tmp("heads.h5"), sents);
  auto back = synmt::eval::read_head_scores(tmp("heads.h5"));
  ASSERT_EQ(back.size(), 2u);
  for (std::size_t s = 0; s < sents.size(); ++s) {  // every sentence, every cell (a wrong offset or reshape shows)
    EXPECT_EQ(back[s].spans, sents[s].spans) << "sentence " << s;
    ASSERT_EQ(back[s].pieces.size(), sents[s].pieces.size()) << "sentence " << s;
    for (std::size_t i = 0; i < sents[s].pieces.size(); ++i)
      for (std::size_t j = 0; j < sents[s].pieces.size(); ++j)
        EXPECT_NEAR(back[s].pieces[i][j], sents[s].pieces[i][j], 1e-6) << s << " " << i << " " << j;  // float32 storage
  }
  auto bad = sents;
  bad[1].pieces[0][2] = std::numeric_limits<double>::quiet_NaN();
  synmt::eval::write_head_scores(tmp("nan.h5"), bad);
  try {
    synmt::eval::read_head_scores(tmp("nan.h5"));
    FAIL() << "NaN accepted";
  } catch (const synmt::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("sentence 2: non-finite"), std::string::npos);
  }
  bad = sents;  // an arc masked by the model (mask_punct_heads): named as such
  bad[0].pieces[1][0] = -std::numeric_limits<double>::infinity();
  synmt::eval::write_head_scores(tmp("masked.h5"), bad);
  try {
    synmt::eval::read_head_scores(tmp("masked.h5"));
    FAIL() << "-inf accepted";
  } catch (const synmt::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("sentence 1: a score of -inf in the head matrix: arcs masked by the model (mask_punct_heads)"),
              std::string::npos) << e.what();
  }
  bad = sents;
  bad[0].spans = {{0, 0}, {2, 5}};  // piece 1 belongs to no word
  synmt::eval::write_head_scores(tmp("gap.h5"), bad);
  EXPECT_THROW(synmt::eval::read_head_scores(tmp("gap.h5")), synmt::InputError);
}

#include <fstream>

#include "eval/gate_norms.h"

TEST(GateNorms, HistogramOfTheWordWithTheHighestGateAndAlignmentErrors) {
  std::ofstream(tmp("target.conllu")) << "1\tEin\t_\tDET\t_\t_\t2\tdet\t_\t_\n2\tHund\t_\tNOUN\t_\t_\t3\tnsubj\t_\t_\n"
                                         "3\tbellt\t_\tVERB\t_\t_\t0\troot\t_\t_\n\n"
                                         "1\tJa\t_\tINTJ\t_\t_\t0\troot\t_\t_\n\n";
  // sentence 1: pieces Ein | Hu@@ nd | bellt, highest norm on "nd" -> NOUN; sentence 2 -> INTJ
  std::vector<synmt::eval::SentenceGateNorms> g = {{{0.1, 0.3, 0.9, 0.2}, {{0, 0}, {1, 2}, {3, 3}}}, {{0.5}, {{0, 0}}}};
  synmt::eval::write_gate_norms(tmp("gates.h5"), g);
  auto back = synmt::eval::read_gate_norms(tmp("gates.h5"));
  auto target = synmt::eval::read_conllu(tmp("target.conllu"));
  auto hist = synmt::eval::gate_pos_histogram(back, target, "target.conllu");
  EXPECT_EQ(hist["NOUN"], 1);
  EXPECT_EQ(hist["INTJ"], 1);
  EXPECT_EQ(hist.size(), 2u);
  g[1].spans = {{0, 0}};
  g[0].spans = {{0, 1}, {2, 3}};  // two words where the tagged sentence has three
  EXPECT_THROW(synmt::eval::gate_pos_histogram(g, target, "target.conllu"), synmt::InputError);
}

// The previous-step reading of Eq. 17: each piece takes the norm of the step before it, so the
// peak moves one piece right; a one-piece sentence has no peak left and is not counted.
TEST(GateNorms, PreviousStepReadingMovesThePeakOnePieceRight) {
  std::ofstream(tmp("prev.conllu")) << "1\tEin\t_\tDET\t_\t_\t2\tdet\t_\t_\n2\tHund\t_\tNOUN\t_\t_\t3\tnsubj\t_\t_\n"
                                       "3\tbellt\t_\tVERB\t_\t_\t0\troot\t_\t_\n\n"
                                       "1\tJa\t_\tINTJ\t_\t_\t0\troot\t_\t_\n\n";
  // pieces Ein | Hu@@ nd | bellt: the step that predicted "nd" (0.9) has the highest norm
  std::vector<synmt::eval::SentenceGateNorms> g = {{{0.1, 0.3, 0.9, 0.2}, {{0, 0}, {1, 2}, {3, 3}}}, {{0.5}, {{0, 0}}}};
  auto target = synmt::eval::read_conllu(tmp("prev.conllu"));
  auto shifted = synmt::eval::norms_of_the_previous_step(g);
  ASSERT_EQ(shifted[0].norms.size(), 4u);
  EXPECT_TRUE(std::isinf(shifted[0].norms[0]));
  EXPECT_DOUBLE_EQ(shifted[0].norms[3], 0.9);  // "bellt" holds the norm of the step before it
  EXPECT_EQ(shifted[0].spans, g[0].spans);
  auto hist = synmt::eval::gate_pos_histogram(shifted, target, "prev.conllu");
  EXPECT_EQ(hist["VERB"], 1);
  EXPECT_EQ(hist.count("INTJ"), 0u);  // one piece: no step before it
  EXPECT_EQ(hist.size(), 1u);
}

TEST(GateNorms, ChanceRatesOfPiecesWordsAndFirstWords) {
  std::ofstream(tmp("chance.conllu")) << "1\tEin\t_\tDET\t_\t_\t2\tdet\t_\t_\n2\tHund\t_\tNOUN\t_\t_\t3\tnsubj\t_\t_\n"
                                         "3\tbellt\t_\tVERB\t_\t_\t0\troot\t_\t_\n\n"
                                         "1\tHunde\t_\tNOUN\t_\t_\t0\troot\t_\t_\n\n";
  auto target = synmt::eval::read_conllu(tmp("chance.conllu"));
  // Ein | Hu@@ nd | bellt ; Hun@@ de
  std::vector<std::vector<std::pair<int, int>>> spans = {{{0, 0}, {1, 2}, {3, 3}}, {{0, 1}}};
  auto c = synmt::eval::gate_pos_chance(spans, target, "chance.conllu");
  EXPECT_EQ(c.sentences, 2);
  EXPECT_EQ(c.pieces, (std::map<std::string, long>{{"DET", 1}, {"NOUN", 4}, {"VERB", 1}}));
  EXPECT_EQ(c.words, (std::map<std::string, long>{{"DET", 1}, {"NOUN", 2}, {"VERB", 1}}));
  EXPECT_EQ(c.first_word, (std::map<std::string, long>{{"DET", 1}, {"NOUN", 1}}));
  spans[0] = {{0, 1}, {2, 3}};  // two words where the tagged sentence has three
  EXPECT_THROW(synmt::eval::gate_pos_chance(spans, target, "chance.conllu"), synmt::InputError);
  spans.pop_back();
  EXPECT_THROW(synmt::eval::gate_pos_chance(spans, target, "chance.conllu"), synmt::InputError);
}

// Head scores read from a teacher-forced analysis dump: a (heads src src) tensor's chosen head,
// transposed when its rows are dependents (self-attention), with the dump's word spans; a missing
// head choice, an unknown tensor and spans that do not cover the pieces are refused.
TEST(HeadScores, ReadFromAnalysisDump) {
  const std::string path = tmp("analysis.h5");
  {
    synmt::H5File f(path, synmt::H5File::Mode::Create);
    synmt::Ragged<float> attention;
    // one sentence, 2 heads, 3 pieces: head 1's row i is piece i's distribution over its heads
    std::vector<float> block(2 * 3 * 3, 0.0f);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) block[9 + i * 3 + j] = static_cast<float>(10 * i + j);
    attention.add(block.data(), {2, 3, 3});
    synmt::write_ragged(f, {"encoder_attention_0", "encoder_attention_0_offsets", "encoder_attention_0_shapes"}, attention);
    synmt::Ragged<int32_t> spans;
    std::vector<int32_t> s{0, 1, 2, 2};  // word 1 = pieces 0..1, word 2 = piece 2
    spans.add(s.data(), {2, 2});
    synmt::write_ragged(f, {"word_spans", "word_spans_offsets", "word_spans_shapes"}, spans);
    f.set_attribute("format", synmt::kAnalysisFormat);
  }
  using synmt::eval::MatrixRows;
  auto heads = synmt::eval::read_head_scores_from_analysis(path, "encoder_attention_0", 1, MatrixRows::kDependentRows);
  ASSERT_EQ(heads.size(), 1u);
  EXPECT_EQ(heads[0].spans, (std::vector<std::pair<int, int>>{{0, 1}, {2, 2}}));
  EXPECT_DOUBLE_EQ(heads[0].pieces[2][0], 2.0);   // transposed: piece 2 heads piece 0 <- row 0, column 2
  EXPECT_DOUBLE_EQ(heads[0].pieces[0][2], 20.0);
  auto rows = synmt::eval::read_head_scores_from_analysis(path, "encoder_attention_0", 1, MatrixRows::kHeadsRows);
  EXPECT_DOUBLE_EQ(rows[0].pieces[2][0], 20.0);
  EXPECT_THROW(synmt::eval::read_head_scores_from_analysis(path, "encoder_attention_0", -1, MatrixRows::kHeadsRows), synmt::ConfigError);
  EXPECT_THROW(synmt::eval::read_head_scores_from_analysis(path, "no_such", 0, MatrixRows::kHeadsRows), synmt::InputError);
  // word spans that leave piece 1 to no word: refused, naming the dump and the word
  const std::string gap = tmp("analysis_gap.h5");
  {
    synmt::H5File f(gap, synmt::H5File::Mode::Create);
    synmt::Ragged<float> attention;
    std::vector<float> block(2 * 3 * 3, 0.5f);
    attention.add(block.data(), {2, 3, 3});
    synmt::write_ragged(f, {"encoder_attention_0", "encoder_attention_0_offsets", "encoder_attention_0_shapes"}, attention);
    synmt::Ragged<int32_t> spans;
    std::vector<int32_t> s{0, 0, 2, 2};  // word 1 = piece 0, word 2 = piece 2: piece 1 is no word's
    spans.add(s.data(), {2, 2});
    synmt::write_ragged(f, {"word_spans", "word_spans_offsets", "word_spans_shapes"}, spans);
    f.set_attribute("format", synmt::kAnalysisFormat);
  }
  try {
    synmt::eval::read_head_scores_from_analysis(gap, "encoder_attention_0", 1, MatrixRows::kHeadsRows);
    ADD_FAILURE() << "spans with a gap accepted";
  } catch (const synmt::InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("analysis_gap.h5"), std::string::npos) << what;
    EXPECT_NE(what.find("word spans must cover the pieces contiguously (word 2"), std::string::npos) << what;
  }
}

// Gate norms read from a teacher-forced analysis dump (one value per target piece plus </s>): the
// </s> step is dropped, the spans come from the target text; a piece count that does not match
// the dump is refused with the sentence named.
TEST(GateNorms, ReadFromAnalysisDump) {
  const std::string path = tmp("gate_analysis.h5");
  {
    synmt::H5File f(path, synmt::H5File::Mode::Create);
    synmt::Ragged<float> norms;
    std::vector<float> a{0.1f, 0.9f, 0.2f, 5.0f}, b{0.7f, 0.3f};  // 3 pieces + </s>, 1 piece + </s>
    norms.add(a.data(), {4});
    norms.add(b.data(), {2});
    synmt::write_ragged(f, {"gate_norm", "gate_norm_offsets", "gate_norm_shapes"}, norms);
    f.set_attribute("format", synmt::kAnalysisFormat);
  }
  auto g = synmt::eval::gate_norms_from_analysis(path, "gate_norm", {{{0, 1}, {2, 2}}, {{0, 0}}});
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].norms.size(), 3u);  // </s> (5.0) dropped: it is no word's
  EXPECT_FLOAT_EQ(static_cast<float>(g[0].norms[1]), 0.9f);
  EXPECT_EQ(g[0].spans, (std::vector<std::pair<int, int>>{{0, 1}, {2, 2}}));
  // each refusal names the dump and what is wrong (the sentence, for a piece-count mismatch)
  auto refusal = [&](const std::string& tensor, const std::vector<std::vector<std::pair<int, int>>>& spans) {
    try {
      synmt::eval::gate_norms_from_analysis(path, tensor, spans);
    } catch (const synmt::InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const auto pieces = refusal("gate_norm", {{{0, 1}}, {{0, 0}}});
  EXPECT_NE(pieces.find("gate_analysis.h5"), std::string::npos) << pieces;
  EXPECT_NE(pieces.find("sentence 1: 4 steps of 'gate_norm', the target text has 2 pieces"), std::string::npos) << pieces;
  const auto count = refusal("gate_norm", {{{0, 0}}});
  EXPECT_NE(count.find("2 sentences, the target text has 1"), std::string::npos) << count;
  const auto tensor = refusal("no_such", {{{0, 0}}, {{0, 0}}});
  EXPECT_NE(tensor.find("no analysis tensor 'no_such'"), std::string::npos) << tensor;
}
