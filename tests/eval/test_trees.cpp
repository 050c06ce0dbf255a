#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <random>

#include "eval/mean_sd.h"
#include "eval/trees.h"

using synmt::eval::Heads;
using synmt::eval::ScoreMatrix;

namespace {
ScoreMatrix random_scores(int n, std::mt19937& rng) {
  std::normal_distribution<double> dist(0.0, 1.0);
  ScoreMatrix s(n + 1, std::vector<double>(n + 1, 0.0));
  for (auto& row : s)
    for (auto& v : row) v = dist(rng);
  return s;
}

// Enumerates every head assignment (n^n) and keeps the best well-formed tree.
double brute_force_best(const ScoreMatrix& s, bool projective_only) {
  const int n = static_cast<int>(s.size()) - 1;
  Heads h(n + 1, 0);
  h[0] = -1;
  double best = -1e300;
  std::function<void(int)> rec = [&](int d) {
    if (d > n) {
      if (synmt::eval::is_tree(h, true) && (!projective_only || synmt::eval::is_projective(h)))
        best = std::max(best, synmt::eval::tree_score(s, h));
      return;
    }
    for (int head = 0; head <= n; ++head) {
      if (head == d) continue;
      h[d] = head;
      rec(d + 1);
    }
  };
  rec(1);
  return best;
}
}  // namespace

TEST(Trees, ChuLiuEdmondsMatchesBruteForceUpToSevenWords) {
  std::mt19937 rng(7);
  for (int n = 1; n <= 7; ++n) {
    for (int trial = 0; trial < (n <= 5 ? 20 : 4); ++trial) {
      auto s = random_scores(n, rng);
      Heads h = synmt::eval::chu_liu_edmonds(s, true);
      ASSERT_TRUE(synmt::eval::is_tree(h, true)) << "n=" << n;
      EXPECT_NEAR(synmt::eval::tree_score(s, h), brute_force_best(s, false), 1e-9) << "n=" << n << " trial=" << trial;
    }
  }
}

TEST(Trees, EisnerMatchesProjectiveBruteForceUpToSevenWords) {
  std::mt19937 rng(11);
  for (int n = 1; n <= 7; ++n) {
    for (int trial = 0; trial < (n <= 5 ? 20 : 4); ++trial) {
      auto s = random_scores(n, rng);
      Heads h = synmt::eval::eisner(s);
      ASSERT_TRUE(synmt::eval::is_tree(h, true)) << "n=" << n;
      ASSERT_TRUE(synmt::eval::is_projective(h));
      EXPECT_NEAR(synmt::eval::tree_score(s, h), brute_force_best(s, true), 1e-9) << "n=" << n << " trial=" << trial;
    }
  }
}

TEST(Trees, BranchingBaselinesAndCollapse) {
  EXPECT_EQ(synmt::eval::left_branching(3), (Heads{-1, 2, 3, 0}));
  EXPECT_EQ(synmt::eval::right_branching(3), (Heads{-1, 0, 1, 2}));
  // pieces: word 1 = {0,1}, word 2 = {2}; phi[i][j]: i heads j, diagonal = root score
  ScoreMatrix phi = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  auto w = synmt::eval::collapse_to_words(phi, {{0, 1}, {2, 2}});
  EXPECT_DOUBLE_EQ(w[0][1], 1 + 2 + 4 + 5);  // root score of word 1: every entry inside its pieces
  EXPECT_DOUBLE_EQ(w[0][2], 9);
  EXPECT_DOUBLE_EQ(w[1][2], 3 + 6);  // word 1 heads word 2: rows 0,1, column 2
  EXPECT_DOUBLE_EQ(w[2][1], 7 + 8);
}

TEST(Trees, RandomTreesAreSingleRootTreesSpreadOverEveryShapeAndFixedBySeed) {
  std::mt19937_64 rng(7), again(7);
  for (int n = 1; n <= 9; ++n)
    for (int draw = 0; draw < 50; ++draw) {
      Heads h = synmt::eval::random_tree(n, rng);
      ASSERT_TRUE(synmt::eval::is_tree(h, true)) << "n=" << n;
      ASSERT_EQ(h, synmt::eval::random_tree(n, again)) << "the same seed gives the same trees";
      Heads p = synmt::eval::random_tree(n, rng, true);
      ASSERT_TRUE(synmt::eval::is_tree(p, true) && synmt::eval::is_projective(p)) << "n=" << n;
      ASSERT_EQ(p, synmt::eval::random_tree(n, again, true));
    }
  // no position is favoured: over 3,000 five-word trees each word is the root child about 1/5 of
  // the time, each word heads word 3 about 1/5 of the time (root included), and many shapes occur
  const int n = 5, draws = 3000;
  std::vector<int> root_child(n + 1, 0), head_of_3(n + 1, 0);
  std::map<Heads, int> shapes;
  for (int i = 0; i < draws; ++i) {
    Heads h = synmt::eval::random_tree(n, rng);
    for (int d = 1; d <= n; ++d)
      if (h[d] == 0) ++root_child[d];
    ++head_of_3[h[3]];
    ++shapes[h];
  }
  for (int d = 1; d <= n; ++d) EXPECT_NEAR(root_child[d], draws / n, 120) << "word " << d << " as the root's child";
  for (int v = 0; v <= n; ++v)
    if (v != 3) EXPECT_NEAR(head_of_3[v], draws / n, 120) << "word " << v << " heading word 3";
  // 5^4 = 625 single-root trees on 5 words; 3,000 uniform draws reach about 620 of them (a sampler
  // that never produced a sizeable share of the shapes would fall well below)
  EXPECT_GE(shapes.size(), 600u);
}

// Tran & Bisk §7.1's phi-hat on a hand 3-word, 5-piece sentence: word 1 = pieces {0, 1}, word 2 =
// {2}, word 3 = {3, 4}. Arcs inside a word count for its root score (the "otherwise" case), and
// that decides the root here (the collapse before this test summed the pieces' diagonal only).
TEST(Trees, CollapseIsThePapersPhiHat) {
  ScoreMatrix phi = {
      //  0    1    2    3    4
      {1.0, 7.0, 0.5, 0.1, 0.2},  // piece 0 (word 1)
      {0.0, 1.0, 0.3, 0.4, 0.0},  // piece 1 (word 1)
      {0.2, 0.1, 9.0, 0.6, 0.7},  // piece 2 (word 2)
      {0.3, 0.0, 0.8, 1.0, 20.0},  // piece 3 (word 3)
      {0.0, 0.5, 0.9, 0.0, 1.0},  // piece 4 (word 3)
  };
  auto w = synmt::eval::collapse_to_words(phi, {{0, 1}, {2, 2}, {3, 4}});
  EXPECT_DOUBLE_EQ(w[0][1], 1.0 + 7.0 + 0.0 + 1.0);   // sum over l, h in {0, 1}
  EXPECT_DOUBLE_EQ(w[0][2], 9.0);                     // one piece: its diagonal
  EXPECT_DOUBLE_EQ(w[0][3], 1.0 + 20.0 + 0.0 + 1.0);  // sum over l, h in {3, 4}
  EXPECT_DOUBLE_EQ(w[1][2], 0.5 + 0.3);               // rows {0, 1}, column 2
  EXPECT_DOUBLE_EQ(w[2][1], 0.2 + 0.1);               // row 2, columns {0, 1}
  EXPECT_DOUBLE_EQ(w[1][3], 0.1 + 0.2 + 0.4 + 0.0);   // rows {0, 1}, columns {3, 4}
  EXPECT_DOUBLE_EQ(w[3][1], 0.3 + 0.0 + 0.0 + 0.5);
  EXPECT_DOUBLE_EQ(w[2][3], 0.6 + 0.7);
  EXPECT_DOUBLE_EQ(w[3][2], 0.8 + 0.9);
  // Chu-Liu-Edmonds' best tree is rooted at word 3 (22 + 0.8 + 1.7 = 24.5 against 11.4 at most
  // for the other roots); with root scores from the diagonal alone (2, 9, 2) it was word 2 (11.1)
  auto heads = synmt::eval::chu_liu_edmonds(w);
  EXPECT_EQ(heads[3], 0);
}

TEST(Trees, HeadStatisticsHandComputed) {
  // 2 words. Column 1: heads {root: 0, word 2: 1} -> best head 2 (distance 1), entropy 0.
  // Column 2: heads {root: 0.5, word 1: 0.5} as probabilities -> entropy ln 2; best = root (first max).
  ScoreMatrix m = {{0, 0.0, 0.5}, {0, 0, 0.5}, {0, 1.0, 0}};
  auto st = synmt::eval::head_statistics({m}, /*from_scores=*/false, /*include_root=*/true);
  EXPECT_EQ(st.words, 2);
  EXPECT_EQ(st.root_heads, 1);
  EXPECT_DOUBLE_EQ(st.distance_mean, 1.0);
  EXPECT_NEAR(st.entropy_mean, std::log(2.0) / 2, 1e-12);
  // 3 words, uniform scores, root excluded: each word has the 2 other words as candidates -> ln 2
  ScoreMatrix u(4, std::vector<double>(4, 0.0));
  auto su = synmt::eval::head_statistics({u}, /*from_scores=*/true, /*include_root=*/false);
  EXPECT_NEAR(su.entropy_mean, std::log(2.0), 1e-12);
  EXPECT_NEAR(su.entropy_std, 0.0, 1e-12);
  EXPECT_NEAR(su.uniform_entropy_mean, std::log(2.0), 1e-12);  // a uniform graph is its own reference
  EXPECT_NEAR(st.uniform_entropy_mean, std::log(2.0), 1e-12);   // 2 candidates per word with the root
}

// A planted latent graph (Bastings et al.'s Tables 3 and 4): 4 tokens, tokens 1..3 put all their
// mass on the token before them, token 0 on token 2; distances 2, 1, 1, 1 -> mean 1.25, sample
// variance 0.25; entropy 0 against ln 3 for a uniform graph over the 3 other tokens.
TEST(Trees, PlantedGraphDistanceAndEntropy) {
  ScoreMatrix m(5, std::vector<double>(5, 0.0));  // row 0 = ROOT, unused (no root)
  m[3][1] = 1;                                     // token 0's head: token 2
  for (int d = 2; d <= 4; ++d) m[d - 1][d] = 1;    // token d-1's head: the token before it
  auto st = synmt::eval::head_statistics({m}, /*from_scores=*/false, /*include_root=*/false);
  EXPECT_EQ(st.words, 4);
  EXPECT_EQ(st.root_heads, 0);
  EXPECT_DOUBLE_EQ(st.distance_mean, 1.25);
  EXPECT_NEAR(st.distance_var, 0.25, 1e-12);
  EXPECT_NEAR(st.distance_std, 0.5, 1e-12);
  EXPECT_NEAR(st.entropy_mean, 0.0, 1e-12);
  EXPECT_NEAR(st.uniform_entropy_mean, std::log(3.0), 1e-12);
  // chance distance, a head drawn uniformly among the other tokens: tokens 1 and 4 average
  // (1 + 2 + 3) / 3 = 2, tokens 2 and 3 (1 + 1 + 2) / 3 = 4/3; over the 4 tokens 5/3
  EXPECT_NEAR(st.uniform_distance_mean, 5.0 / 3.0, 1e-12);
  // heads at either end: token 1's head is token 0 (the first) -> 1 of 4 words, 25%; the other
  // distances 2, 1, 1 -> 4/3. Chance over the inner heads (tokens 1 and 2): tokens 0 and 3 average
  // (1 + 2) / 2, tokens 1 and 2 have one inner head at distance 1 -> (1.5 + 1 + 1 + 1.5) / 4
  EXPECT_NEAR(st.end_head_percent, 25.0, 1e-12);
  EXPECT_NEAR(st.inner_distance_mean, 4.0 / 3.0, 1e-12);
  EXPECT_NEAR(st.uniform_inner_distance_mean, 1.25, 1e-12);
}

// A hub graph (the RNN encoder's latent graphs in the mini runs): every token takes the last token
// as its head, the last token the first. The plain mean distance (4+3+2+1+4)/5 = 2.8 sits near
// chance and says nothing; the end share (100%) says what happened, and no head is left inside.
TEST(Trees, HubGraphHeadsAtTheEnds) {
  ScoreMatrix m(6, std::vector<double>(6, 0.0));
  for (int d = 1; d <= 4; ++d) m[5][d] = 1;
  m[1][5] = 1;
  auto st = synmt::eval::head_statistics({m}, /*from_scores=*/false, /*include_root=*/false);
  EXPECT_EQ(st.words, 5);
  EXPECT_DOUBLE_EQ(st.distance_mean, 2.8);
  EXPECT_DOUBLE_EQ(st.end_head_percent, 100.0);
  EXPECT_DOUBLE_EQ(st.inner_distance_mean, 0.0);  // no word has a head at neither end
  // one word moved off the hub (token 2 -> token 3, inside): 80% at the ends, inner distance 1
  m[5][3] = 0;
  m[4][3] = 1;
  st = synmt::eval::head_statistics({m}, false, false);
  EXPECT_DOUBLE_EQ(st.end_head_percent, 80.0);
  EXPECT_DOUBLE_EQ(st.inner_distance_mean, 1.0);
}

TEST(MeanSd, SampleSdAndLargeOffsets) {
  synmt::eval::MeanSd s;
  EXPECT_EQ(s.mean(), 0.0);
  EXPECT_EQ(s.sd(), 0.0);
  for (double x : {2, 4, 4, 4, 5, 5, 7, 9}) s.add(x);
  EXPECT_EQ(s.count(), 8);
  EXPECT_NEAR(s.mean(), 5.0, 1e-12);
  EXPECT_NEAR(s.sd(), std::sqrt(32.0 / 7.0), 1e-12);  // n - 1 in the denominator
  // Values around 1e9: a sum of squares minus n * mean^2 loses the sd (about 5.48) to cancellation.
  synmt::eval::MeanSd big;
  for (double x : {4, 7, 13, 16}) big.add(1e9 + x);
  EXPECT_NEAR(big.mean(), 1e9 + 10, 1e-6);
  EXPECT_NEAR(big.sd(), std::sqrt(30.0), 1e-6);
}
