#pragma once
// Paired significance tests over per-segment sufficient statistics, computed once and re-summed
// per resample. Paired bootstrap follows sacreBLEU 2's --paired-bs exactly: the same resample
// indices for every system, the test statistic |score(sys) - score(base)|, sample differences
// centred on their mean, p = (c + 1) / (n + 1) with c = #{centred sample diff > observed diff},
// and the 95% CI as half the spread between the n/40-th smallest and largest resample scores.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace synmt::eval {

// One row per segment, a fixed number of statistics per row.
using SegmentStats = std::vector<std::vector<double>>;
using ScoreFn = std::function<double(const std::vector<double>& summed)>;

struct BootstrapSummary {
  double score = 0;   // on the real test set
  double mean = 0;    // bootstrap mean
  double ci = 0;      // 95% half-width
  double p_value = -1;  // -1 for the baseline
  double koehn_p_value = -1;  // Koehn (2004): share of resamples where the system is not better
  std::vector<double> samples;  // the score of every resample
};

// Where each resample's segment indices come from: drawn from a seed, or replayed from a list
// (to compare exactly with another implementation). Drawn resamples each have their own
// counter-based stream (SplitMix64 keyed by seed and resample number), so the worker that sums a
// resample draws it itself, in any order, on any number of threads, with the same result; nothing
// of size samples x segments is stored (materialising 3M indices cost as much as summing them).
//
// runs > 1: the segments are `runs` outputs of the same test set one after another (a seed group's
// concatenated hypotheses against the reference repeated once per run), and the resampled unit is
// the test sentence: a resample draws n_segments / runs sentences and takes every run's row of each
// (rows j, j + m, j + 2m, ... for m sentences). Drawing the rows one by one would treat the runs'
// outputs of one sentence as independent test sentences: runs agree on which sentences they
// translate well, so that understates the resampling variance and gives too small p-values.
// runs = 1 draws exactly as before (sacreBLEU's scheme over segments).
class ResamplePlan {
 public:
  static ResamplePlan drawn(std::size_t n_segments, int n_samples, uint64_t seed, std::size_t runs = 1);
  static ResamplePlan replayed(std::vector<std::vector<int32_t>> indices, std::size_t n_segments);
  std::size_t samples() const { return samples_; }
  std::size_t segments() const { return segments_; }
  // Resample r's segment indices into out[0 .. segments()). Thread-safe.
  void indices(std::size_t r, int32_t* out) const;

 private:
  std::size_t segments_ = 0, samples_ = 0, runs_ = 1;
  uint64_t seed_ = 0;
  std::vector<std::vector<int32_t>> replayed_;  // empty: drawn
};

// One resample per line, segment indices separated by spaces; errors name the file and line.
std::vector<std::vector<int32_t>> read_indices(const std::string& path, std::size_t n_segments);

// sacreBLEU's estimate_ci: mean of the sorted scores and half the 95% spread. float32_scores: the
// metric's resample scores are NumPy float32 (chrF), so sums, means and differences are float32.
std::pair<double, double> mean_and_ci(std::vector<double> scores, bool float32_scores = false);
// NumPy's mean: pairwise summation (blocks of 8, 128-element leaves) in Real, divided in double.
template <class Real>
double numpy_mean(const std::vector<double>& values);

// baseline first; then every system against it. Systems are tested on `threads` threads.
std::vector<BootstrapSummary> paired_bootstrap(const std::vector<SegmentStats>& systems, const ScoreFn& exact_score,
                                               const ScoreFn& resample_score,
                                               const ResamplePlan& plan, int threads, bool float32_scores = false);

// Approximate randomisation as sacreBLEU's --paired-ar: in every trial each segment's statistics
// are swapped between baseline and system with probability 1/2 (selections[t][i] = 1: the
// baseline's row goes to side A); the statistic is |score(A) - score(B)| and
// p = (c + 1) / (n + 1), c = #{trial statistic > observed |score(sys) - score(base)|}.
std::vector<std::vector<uint8_t>> ar_selections(std::size_t n_segments, int n_trials, uint64_t seed);
// One trial per line: n_segments values 0/1 (or true/false) separated by spaces.
std::vector<std::vector<uint8_t>> read_selections(const std::string& path, std::size_t n_segments);
std::vector<BootstrapSummary> paired_ar(const std::vector<SegmentStats>& systems, const ScoreFn& score,
                                        const std::vector<std::vector<uint8_t>>& selections, int threads);

// Koehn (2004) / Moses style: fraction of resamples in which the system is NOT better than the
// baseline (one-sided), reported as its p-value.
double koehn_p_value(const std::vector<double>& baseline_scores, const std::vector<double>& system_scores);

}  // namespace synmt::eval
