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

// A damaged or hand-edited prior is refused naming the file: a format that is not a string (the
// JSON library's type error escaped), lengths that are not token counts ("12abc" was read as 12),
// counts below 1 or not integers (3.7 was read as 3), the same length written twice ("01" and "1"),
// totals that would overflow, no pairs at all (a ConfigError without the file's name before).
TEST(LengthPrior, MalformedFilesAreRefusedNamingTheFile) {
  const std::string ok = R"({"format": "synmt-length-prior-1", "max_target_length": 2, "counts": {"1": {"2": 3}}})";
  EXPECT_NO_THROW(synmt::eval::LengthPrior::load(write("lp.ok", ok)));
  for (const std::string& bad :
       {std::string(R"({"format": 7, "counts": {"1": {"2": 3}}})"),
        std::string(R"({"format": "synmt-length-prior-1", "counts": {"12abc": {"2": 3}}})"),
        std::string(R"({"format": "synmt-length-prior-1", "counts": {"-1": {"2": 3}}})"),
        std::string(R"({"format": "synmt-length-prior-1", "counts": {"1": {"2": 0}}})"),
        std::string(R"({"format": "synmt-length-prior-1", "counts": {"1": {"2": 3.7}}})"),
        std::string(R"({"format": "synmt-length-prior-1", "counts": {"1": {"2": "3"}}})"),
        std::string(R"({"format": "synmt-length-prior-1", "counts": {"1": {"2": 3}, "01": {"2": 3}}})"),
        std::string(R"({"format": "synmt-length-prior-1", "counts": {"1": {"1": 1099511627776, "2": 1099511627776, "3": 1099511627776}}})"),
        std::string(R"({"format": "synmt-length-prior-1", "counts": {"1": {}}})"),
        std::string(R"({"format": "synmt-length-prior-1", "counts": {}})"),
        std::string(R"({"format": "synmt-length-prior-1", "counts": [1]})")}) {
    const std::string path = write("lp.bad", bad);
    try {
      synmt::eval::LengthPrior::load(path);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const synmt::InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(path + ": ", 0), 0u) << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << bad << ": not an InputError: " << e.what();
    }
  }
}
