// Matrix-tree marginals (single root) against brute-force enumeration, and the properties the
// structured attention relies on.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "trainer/nn/matrix_tree.h"
#include "trainer/nn/structured_attention.h"

namespace {

// Brute force over every head assignment of n tokens (head i != j, or the root = the diagonal)
// that is a tree with exactly one child of the root: marginals[i][j] = P(i heads j), and log Z.
std::pair<std::vector<std::vector<double>>, double> brute_force(const torch::Tensor& phi) {
  const int n = static_cast<int>(phi.size(0));
  auto p = phi.accessor<double, 2>();
  std::vector<int> head(static_cast<std::size_t>(n));
  std::vector<std::vector<double>> marginal(n, std::vector<double>(n, 0.0));
  double Z = 0;
  std::function<void(int)> rec = [&](int j) {
    if (j == n) {
      int roots = 0;
      for (int k = 0; k < n; ++k) roots += head[k] == k;
      if (roots != 1) return;
      for (int k = 0; k < n; ++k) {  // every token reaches the root without a cycle
        int x = k, steps = 0;
        while (head[x] != x && steps <= n) x = head[x], ++steps;
        if (steps > n) return;
      }
      double w = 0;
      for (int k = 0; k < n; ++k) w += p[head[k]][k];
      w = std::exp(w);
      Z += w;
      for (int k = 0; k < n; ++k) marginal[head[k]][k] += w;
      return;
    }
    for (int h = 0; h < n; ++h) {
      head[j] = h;
      rec(j + 1);
    }
  };
  rec(0);
  for (auto& row : marginal)
    for (auto& v : row) v /= Z;
  return {marginal, std::log(Z)};
}

torch::Tensor lengths_of(std::vector<int64_t> v) { return torch::tensor(v, torch::kInt64); }

}  // namespace

TEST(MatrixTree, EqualsBruteForceOverSingleRootTreesInFloat64) {
  torch::manual_seed(3);
  for (int n = 1; n <= 6; ++n) {
    auto phi = torch::randn({1, n, n}, torch::kFloat64) * 2;
    auto beta = synmt::matrix_tree_marginals(phi, lengths_of({n}))[0];
    auto [expected, log_z] = brute_force(phi[0]);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) EXPECT_NEAR(beta[i][j].item<double>(), expected[i][j], 1e-10) << "n " << n << " (" << i << "," << j << ")";
    EXPECT_NEAR(synmt::matrix_tree_log_partition(phi, lengths_of({n}))[0].item<double>(), log_z, 1e-10) << "n " << n;
  }
}

TEST(MatrixTree, ColumnsAndRootsSumToOneAndBetaIsTheGradientOfLogZ) {
  torch::manual_seed(4);
  auto phi = (torch::randn({3, 5, 5}, torch::kFloat64) * 3).requires_grad_(true);
  auto lengths = lengths_of({5, 3, 1});
  auto beta = synmt::matrix_tree_marginals(phi, lengths);
  auto log_z = synmt::matrix_tree_log_partition(phi, lengths);
  log_z.sum().backward();
  for (int b = 0; b < 3; ++b) {
    const int64_t n = lengths[b].item<int64_t>();
    auto real = beta[b].narrow(0, 0, n).narrow(1, 0, n);
    EXPECT_TRUE(torch::allclose(real.sum(0), torch::ones({n}, torch::kFloat64), 1e-10, 1e-10)) << b;
    EXPECT_NEAR(real.diagonal().sum().item<double>(), 1.0, 1e-10) << b;
  }
  EXPECT_TRUE(torch::allclose(phi.grad(), beta.detach(), 1e-9, 1e-9));  // d log Z / d phi = beta
}

TEST(MatrixTree, ShiftInvariantPaddingHarmlessAndStableInFloat32) {
  torch::manual_seed(5);
  auto phi = torch::randn({1, 4, 4}, torch::kFloat64);
  auto alone = synmt::matrix_tree_marginals(phi, lengths_of({4}));
  EXPECT_TRUE(torch::allclose(synmt::matrix_tree_marginals(phi + 17.0, lengths_of({4})), alone, 1e-10, 1e-10));
  // the same sentence padded to 7 inside a batch, pads full of junk: same marginals, zero gradient at pads
  auto padded = (torch::randn({2, 7, 7}, torch::kFloat64) * 50).requires_grad_(false);
  padded.index_put_({0, torch::indexing::Slice(0, 4), torch::indexing::Slice(0, 4)}, phi[0]);
  padded.requires_grad_(true);
  auto beta = synmt::matrix_tree_marginals(padded, lengths_of({4, 7}));
  EXPECT_TRUE(torch::allclose(beta[0].narrow(0, 0, 4).narrow(1, 0, 4), alone[0], 1e-10, 1e-10));
  EXPECT_EQ(beta[0].narrow(0, 4, 3).abs().sum().item<double>(), 0.0);
  EXPECT_EQ(beta[0].narrow(1, 4, 3).abs().sum().item<double>(), 0.0);
  (beta * torch::randn_like(beta)).sum().backward();
  EXPECT_EQ(padded.grad()[0].narrow(0, 4, 3).abs().sum().item<double>(), 0.0);
  EXPECT_EQ(padded.grad()[0].narrow(1, 4, 3).abs().sum().item<double>(), 0.0);
  // float32 with scores in [-30, 30] stays finite, columns still sum to 1
  auto wide = (torch::rand({4, 6, 6}) * 60 - 30);
  auto b32 = synmt::matrix_tree_marginals(wide, lengths_of({6, 5, 2, 1}));
  EXPECT_TRUE(torch::isfinite(b32).all().item<bool>());
  EXPECT_TRUE(torch::allclose(b32[0].sum(0), torch::ones({6}), 1e-3, 1e-3));
}

// Trained scores spread per column: a column whose scores all sit ~150 below another column's
// must not underflow to an all-zero column of L^ (singular) in float32. The marginals then equal
// float64's, and the gradient is finite.
TEST(MatrixTree, ColumnsFarApartStayExactInFloat32) {
  torch::manual_seed(7);
  auto phi64 = torch::randn({1, 5, 5}, torch::kFloat64);
  phi64.index({0, torch::indexing::Slice(), 2}) += 80.0;   // dependent 2: every score high
  phi64.index({0, torch::indexing::Slice(), 4}) -= 70.0;   // dependent 4: every score low
  auto expected = synmt::matrix_tree_marginals(phi64, lengths_of({5}));
  auto phi32 = phi64.to(torch::kFloat32).requires_grad_(true);
  auto beta = synmt::matrix_tree_marginals(phi32, lengths_of({5}));
  EXPECT_TRUE(torch::allclose(beta.to(torch::kFloat64), expected, 1e-4, 1e-4));
  (beta * torch::randn_like(beta)).sum().backward();
  EXPECT_TRUE(torch::isfinite(phi32.grad()).all().item<bool>());
  auto [brute, log_z] = brute_force(phi64[0]);
  for (int i = 0; i < 5; ++i)  // and both equal the enumeration of all trees
    for (int j = 0; j < 5; ++j) EXPECT_NEAR(beta[0][i][j].item<double>(), brute[i][j], 1e-4) << "(" << i << "," << j << ")";
  EXPECT_NEAR(synmt::matrix_tree_log_partition(phi64, lengths_of({5}))[0].item<double>(), log_z, 1e-9);
}

TEST(MatrixTree, PlantedTreeGetsItsArcs) {
  // chain 0 <- 1 <- 2 <- 3 with 1 the root: +10 on its arcs
  auto phi = torch::zeros({1, 4, 4}, torch::kFloat64);
  phi[0][1][1] = 10;  // root
  phi[0][1][0] = 10;  // 1 heads 0
  phi[0][1][2] = 10;  // 1 heads 2
  phi[0][2][3] = 10;  // 2 heads 3
  auto beta = synmt::matrix_tree_marginals(phi, lengths_of({4}))[0];
  for (auto [i, j] : std::vector<std::pair<int, int>>{{1, 1}, {1, 0}, {1, 2}, {2, 3}}) EXPECT_GE(beta[i][j].item<double>(), 0.99);
}

// Head selection: flat columns are distributions over the real heads (pads excluded); hard is
// exactly one-hot forward and carries the tree marginals' gradient backward.
TEST(StructuredAttention, FlatColumnsSumToOneAndHardIsOneHotWithTheSoftGradient) {
  torch::manual_seed(6);
  auto states = torch::randn({2, 5, 8});
  auto lengths = lengths_of({5, 3});
  synmt::StructuredAttention flat(synmt::StructuredAttentionOptions{8, 8, synmt::HeadSelection::kFlat, false});
  auto f = flat(states, lengths);
  EXPECT_TRUE(torch::allclose(f.beta[0].sum(0), torch::ones({5}), 1e-5, 1e-5));
  EXPECT_TRUE(torch::allclose(f.beta[1].narrow(1, 0, 3).sum(0), torch::ones({3}), 1e-5, 1e-5));
  EXPECT_EQ(f.beta[1].narrow(0, 3, 2).abs().sum().item<double>(), 0.0);  // pads head nothing
  EXPECT_EQ(f.beta[1].narrow(1, 3, 2).abs().sum().item<double>(), 0.0);  // pads have no head
  torch::manual_seed(7);
  synmt::StructuredAttention tree(synmt::StructuredAttentionOptions{8, 8, synmt::HeadSelection::kTree, false});
  torch::manual_seed(7);
  synmt::StructuredAttention hard(synmt::StructuredAttentionOptions{8, 8, synmt::HeadSelection::kHard, false});
  auto soft = tree(states, lengths);
  auto one_hot = hard(states, lengths);
  auto b = one_hot.beta[0];
  EXPECT_TRUE(torch::equal(b.sum(0), torch::ones({5})));
  EXPECT_TRUE(torch::equal(b, (b == 1).to(b.dtype())));  // exactly 0/1
  EXPECT_TRUE(torch::equal(b.argmax(0), soft.beta[0].argmax(0)));
  auto p = one_hot.beta[1];  // the padded sentence: one-hot over its 3 real heads, pads neither head nor are headed
  EXPECT_TRUE(torch::equal(p, (p == 1).to(p.dtype())));  // exactly 0/1 here too
  EXPECT_TRUE(torch::equal(p.narrow(1, 0, 3).sum(0), torch::ones({3})));
  EXPECT_TRUE(torch::equal(p.narrow(1, 0, 3).argmax(0), soft.beta[1].narrow(1, 0, 3).argmax(0)));
  EXPECT_EQ(p.narrow(0, 3, 2).abs().sum().item<double>(), 0.0);
  EXPECT_EQ(p.narrow(1, 3, 2).abs().sum().item<double>(), 0.0);
  auto weights = torch::randn({2, 5, 5});
  (soft.beta * weights).sum().backward();
  std::vector<torch::Tensor> soft_grads;
  for (std::size_t k = 0; k < 2; ++k) soft_grads.push_back(tree->parameters()[k].grad().clone());  // query, key (beta ignores value)
  (one_hot.beta * weights).sum().backward();
  auto hard_params = hard->parameters();
  for (std::size_t k = 0; k < 2; ++k)  // query and key: the selection's gradient is the soft one
    EXPECT_TRUE(torch::allclose(hard_params[k].grad(), soft_grads[k], 1e-5, 1e-6));
}

// mask_punct_heads: a barred token heads no other token (its row is zero off the diagonal), every
// column is still a distribution, the tree marginals equal brute force over the trees that avoid
// barred heads, gradients stay finite, and a sentence of barred tokens only keeps every head
// (otherwise it would have no single-root tree).
TEST(StructuredAttention, BarredHeadsHeadNothingAndColumnsStillSumToOne) {
  torch::manual_seed(8);
  auto states = torch::randn({2, 4, 8}, torch::requires_grad());
  auto lengths = lengths_of({4, 3});
  auto may_head = torch::tensor({{true, false, true, false}, {false, false, false, true}});
  for (auto selection : {synmt::HeadSelection::kTree, synmt::HeadSelection::kFlat}) {
    torch::manual_seed(9);
    synmt::StructuredAttention att(synmt::StructuredAttentionOptions{8, 8, selection, selection == synmt::HeadSelection::kTree});
    auto out = att(states, lengths, may_head);
    auto b = out.beta[0];
    for (int64_t i : {1, 3})
      for (int64_t j = 0; j < 4; ++j)
        if (i != j) {
          EXPECT_EQ(b[i][j].item<double>(), 0.0) << "barred head " << i << " of " << j;
          // phi, what the analysis dump and the induced trees read, bars the same arcs
          EXPECT_EQ(out.phi[0][i][j].item<float>(), -std::numeric_limits<float>::infinity()) << "phi " << i << " " << j;
        }
    EXPECT_TRUE(torch::allclose(b.sum(0), torch::ones({4}), 1e-5, 1e-5));
    // sentence 2: its real tokens 0..2 are all barred, so nothing is barred
    auto free = att(states, lengths).beta[1];
    EXPECT_TRUE(torch::allclose(out.beta[1], free, 1e-6, 1e-6));
    out.beta.sum().backward();
    for (auto& p : att->parameters())
      if (p.grad().defined()) EXPECT_TRUE(torch::isfinite(p.grad()).all().item<bool>());
    if (selection == synmt::HeadSelection::kTree) {
      // brute force on sentence 1's phi with the barred arcs removed (-inf)
      auto phi = out.phi[0].detach().to(torch::kFloat64).clone();
      for (int64_t i : {1, 3})
        for (int64_t j = 0; j < 4; ++j)
          if (i != j) phi[i][j] = -std::numeric_limits<double>::infinity();
      auto [marginal, log_z] = brute_force(phi);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) EXPECT_NEAR(b[i][j].item<double>(), marginal[i][j], 1e-6);  // beta is returned in float32
    }
  }
}
