// The paired bootstrap's resampling of seed groups (ResamplePlan with runs > 1): a resample draws
// test sentences and keeps every run's row of each, so that runs agreeing on the same sentences
// do not count as independent evidence.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "eval/significance.h"

namespace {

using synmt::eval::ResamplePlan;
using synmt::eval::SegmentStats;

TEST(ResamplePlan, RunsOfOneTestSetAreResampledBySentence) {
  const std::size_t m = 7, runs = 3;
  const auto plan = ResamplePlan::drawn(m * runs, 40, 11, runs);
  const auto single = ResamplePlan::drawn(m, 40, 11);
  std::vector<int32_t> out(m * runs), one(m);
  for (std::size_t r = 0; r < plan.samples(); ++r) {
    plan.indices(r, out.data());
    single.indices(r, one.data());
    for (std::size_t k = 0; k < m; ++k) {
      EXPECT_EQ(out[k], one[k]) << "resample " << r << ": the first run draws as a one-run test of its sentences";
      for (std::size_t run = 1; run < runs; ++run)
        EXPECT_EQ(out[run * m + k], out[k] + static_cast<int32_t>(run * m)) << "resample " << r << " run " << run;
    }
  }
  EXPECT_THROW(ResamplePlan::drawn(10, 5, 1, 3), std::invalid_argument);  // 10 rows are not 3 runs
}

// Three identical runs are one run's evidence: resampled by sentence, their concatenation gives
// exactly the one-run p-value (a ratio metric: every resample's sums are three times the one-run
// resample's); resampled row by row, the copies pass for three times the test sentences and the
// p-value shrinks.
TEST(PairedBootstrap, CopiesOfOneRunAreNoMoreEvidenceThanTheRun) {
  const std::size_t m = 300;
  std::mt19937 rng(3);
  std::normal_distribution<double> score(0.5, 0.2), gain(0.008, 0.15);
  SegmentStats base, sys;
  for (std::size_t i = 0; i < m; ++i) {
    const double b = score(rng);
    base.push_back({b, 1.0});
    sys.push_back({b + gain(rng), 1.0});
  }
  auto thrice = [](const SegmentStats& s) {
    SegmentStats out;
    for (int k = 0; k < 3; ++k) out.insert(out.end(), s.begin(), s.end());
    return out;
  };
  const synmt::eval::ScoreFn mean = [](const std::vector<double>& summed) { return summed[0] / summed[1]; };
  const double p_one =
      synmt::eval::paired_bootstrap({base, sys}, mean, mean, ResamplePlan::drawn(m, 1000, 12345), 1)[1].p_value;
  const double p_by_sentence =
      synmt::eval::paired_bootstrap({thrice(base), thrice(sys)}, mean, mean, ResamplePlan::drawn(3 * m, 1000, 12345, 3), 1)[1].p_value;
  const double p_by_row =
      synmt::eval::paired_bootstrap({thrice(base), thrice(sys)}, mean, mean, ResamplePlan::drawn(3 * m, 1000, 12345), 1)[1].p_value;
  EXPECT_DOUBLE_EQ(p_by_sentence, p_one);
  EXPECT_GT(p_one, 0.05) << "the data should leave the one-run test undecided";
  EXPECT_LT(p_by_row, p_one / 3) << "rows drawn one by one: the copies pass for independent sentences";
  std::printf("one run p = %.3f; three copies by sentence p = %.3f, by row p = %.3f\n", p_one, p_by_sentence, p_by_row);
}

}  // namespace
