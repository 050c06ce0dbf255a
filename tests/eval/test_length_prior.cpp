// The target-length prior of LGP-NMT's beam search: add-one smoothed p(L_y | L_x), back-off to the
// nearest observed source length, save/load, and clear errors on bad files.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "eval/length_prior.h"

namespace {
std::string write(const std::string& name, const std::string& text) {
  std::filesystem::create_directories(SYNMT_TEST_TMP);
  const std::string path = std::string(SYNMT_TEST_TMP) + "/" + name;
  std::ofstream(path) << text;
  return path;
}
}  // namespace

TEST(LengthPrior, AddOneSmoothedCountsOfAHandBuiltCorpus) {
  // L_x = 3: L_y = 2 twice, 4 once; L_x = 1: L_y = 1 once; the longest target has 4 tokens
  const auto src = write("lp.src", "a b c\nd e f\ng h i\nj\n");
  const auto tgt = write("lp.tgt", "x y\nx y\nw x y z\nv\n");
  auto p = synmt::eval::LengthPrior::estimate(src, tgt);
  EXPECT_EQ(p.max_target_length(), 4);
  EXPECT_NEAR(p.log_prob(3, 2), std::log(3.0 / 7.0), 1e-12);  // (2 + 1) / (3 + 4)
  EXPECT_NEAR(p.log_prob(3, 4), std::log(2.0 / 7.0), 1e-12);
  EXPECT_NEAR(p.log_prob(3, 3), std::log(1.0 / 7.0), 1e-12);
  EXPECT_NEAR(p.log_prob(1, 1), std::log(2.0 / 5.0), 1e-12);
  // unseen source lengths: the nearest observed (2 is as near to 1 as to 3: the shorter), beyond: the longest
  EXPECT_EQ(p.log_prob(2, 1), p.log_prob(1, 1));
  EXPECT_EQ(p.log_prob(9, 2), p.log_prob(3, 2));
  const std::string saved = std::string(SYNMT_TEST_TMP) + "/lp.json";
  p.save(saved);
  auto q = synmt::eval::LengthPrior::load(saved);
  for (int lx : {1, 2, 3, 7})
    for (int ly : {0, 1, 2, 3, 4, 5}) EXPECT_EQ(q.log_prob(lx, ly), p.log_prob(lx, ly));
  EXPECT_THROW(synmt::eval::LengthPrior::load(src), synmt::InputError);
  EXPECT_THROW(synmt::eval::LengthPrior::estimate(src, write("lp.short", "x\n")), synmt::InputError);
}
