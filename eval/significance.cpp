#include "eval/significance.h"


#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <type_traits>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "core/error.h"
#include "core/line_reader.h"

namespace synmt::eval {

namespace {
// SplitMix64 (Steele, Lea & Flood 2014): a 64-bit counter through a bijective mixer. Passes
// BigCrush; one multiply-xorshift chain per draw, several times cheaper than std::mt19937_64.
uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
}  // namespace

ResamplePlan ResamplePlan::drawn(std::size_t n_segments, int n_samples, uint64_t seed, std::size_t runs) {
  if (runs < 1 || n_segments % runs != 0)
    throw std::invalid_argument("ResamplePlan: " + std::to_string(n_segments) + " segments are not " + std::to_string(runs) +
                                " runs of one test set");
  ResamplePlan plan;
  plan.segments_ = n_segments;
  plan.runs_ = runs;
  plan.samples_ = static_cast<std::size_t>(std::max(0, n_samples));
  plan.seed_ = seed;
  return plan;
}

ResamplePlan ResamplePlan::replayed(std::vector<std::vector<int32_t>> indices, std::size_t n_segments) {
  ResamplePlan plan;
  plan.segments_ = n_segments;
  plan.samples_ = indices.size();
  plan.replayed_ = std::move(indices);
  return plan;
}

void ResamplePlan::indices(std::size_t r, int32_t* out) const {
  if (!replayed_.empty()) {
    std::copy(replayed_[r].begin(), replayed_[r].end(), out);
    return;
  }
  // the stream of resample r starts from a hash of (seed, r); Lemire's multiply-shift maps 32
  // random bits to [0, n) with a bias below n / 2^32 (< 1e-6 here)
  uint64_t key = seed_ ^ (0xd1b54a32d192ed03ULL * (r + 1));
  uint64_t state = splitmix64(key);
  const std::size_t m = segments_ / runs_;  // test sentences; runs_ = 1: every segment
  const uint64_t n = m;
  for (std::size_t k = 0; k < m; k += 2) {
    const uint64_t bits = splitmix64(state);
    out[k] = static_cast<int32_t>(((bits & 0xffffffffULL) * n) >> 32);
    if (k + 1 < m) out[k + 1] = static_cast<int32_t>(((bits >> 32) * n) >> 32);
  }
  for (std::size_t run = 1; run < runs_; ++run)  // the same sentences' rows in every other run
    for (std::size_t k = 0; k < m; ++k) out[run * m + k] = out[k] + static_cast<int32_t>(run * m);
}

std::vector<std::vector<int32_t>> read_indices(const std::string& path, std::size_t n_segments) {
  LineReader in(path);
  std::vector<std::vector<int32_t>> out;
  std::string line;
  while (in.next(line)) {
    std::vector<int32_t> sample;
    std::istringstream ss(line);
    long long v;
    while (ss >> v) {
      if (v < 0 || static_cast<std::size_t>(v) >= n_segments)
        in.fail("segment index " + std::to_string(v) + " out of range [0, " + std::to_string(n_segments) + ")");
      sample.push_back(static_cast<int32_t>(v));
    }
    if (!ss.eof()) in.fail("not a list of integers");
    if (sample.size() != n_segments)
      in.fail("resample has " + std::to_string(sample.size()) + " indices, expected " + std::to_string(n_segments));
    out.push_back(std::move(sample));
  }
  if (out.empty()) throw InputError(path, 0, "no resamples");
  return out;
}

namespace {
template <class Real>
Real pairwise_sum(const Real* a, std::size_t n) {
  if (n < 8) {
    Real res = 0;
    for (std::size_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {
    Real r[8];
    for (int j = 0; j < 8; ++j) r[j] = a[j];
    std::size_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int j = 0; j < 8; ++j) r[j] += a[i + j];
    Real res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  std::size_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwise_sum(a, n2) + pairwise_sum(a + n2, n - n2);
}
}  // namespace

template <class Real>
double numpy_mean(const std::vector<double>& values) {
  std::vector<Real> x(values.begin(), values.end());
  Real sum = pairwise_sum(x.data(), x.size());
  return static_cast<double>(static_cast<Real>(static_cast<double>(sum) / static_cast<double>(x.size())));
}
template double numpy_mean<float>(const std::vector<double>&);
template double numpy_mean<double>(const std::vector<double>&);

std::pair<double, double> mean_and_ci(std::vector<double> scores, bool float32_scores) {
  std::sort(scores.begin(), scores.end());
  const std::size_t n = scores.size();
  double mean = float32_scores ? numpy_mean<float>(scores) : numpy_mean<double>(scores);
  std::size_t lower = n / 40, upper = n - lower - 1;
  if (float32_scores)
    return {mean, static_cast<double>(0.5f * (static_cast<float>(scores[upper]) - static_cast<float>(scores[lower])))};
  return {mean, 0.5 * (scores[upper] - scores[lower])};
}

namespace {
std::vector<double> column_totals(const SegmentStats& s) {
  std::vector<double> sum(s.empty() ? 0 : s[0].size(), 0.0);
  for (const auto& row : s)
    for (std::size_t k = 0; k < sum.size(); ++k) sum[k] += row[k];
  return sum;
}

// Row sums of every resample for every system at once: the statistics of all systems for one
// segment are contiguous, so each resample adds up its selected rows in one vectorisable loop.
// Narrow types halve or quarter the memory traffic of these random row reads, which dominate:
// integer statistics below 2^16 are stored as uint16 and summed in int32 (exact while
// segments x largest value < 2^31); other integers below the float range (sums < 2^24 for any
// resample) in float; anything else (RIBES' real-valued scores) in double. The caller's
// `threads` workers split the resamples. AVX-512 and AVX2 clones are chosen at run time where the CPU has them (GCC function
// multi-versioning).
// The inner loop in a restrict-qualified helper so that it vectorises.
template <class Acc, class Cell>
__attribute__((always_inline)) inline void add_row(Acc* __restrict acc, const Cell* __restrict row, std::size_t cols) {
  for (std::size_t k = 0; k < cols; ++k) acc[k] += static_cast<Acc>(row[k]);
}

template <class Acc, class Cell>
__attribute__((always_inline)) inline void sum_columns(const Cell* stats, std::size_t stride, const int32_t* idx,
                                                       std::size_t n, Acc* acc) {
  for (std::size_t j = 0; j < n; ++j) add_row(acc, stats + static_cast<std::size_t>(idx[j]) * stride, stride);
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void sum_rows_u16_generic(const uint16_t* stats,
                                                                                        std::size_t stride,
                                                                                        const int32_t* idx, std::size_t n,
                                                                                        int32_t* acc) {
  sum_columns(stats, stride, idx, n, acc);
}

#if defined(__x86_64__) && defined(__GNUC__)
// V vectors of 16 uint16 cells widened to int32 and kept in registers for the whole resample
// (the compiled loops above load and store the accumulators for every row): AVX-512, V <= 8.
template <int V>
__attribute__((target("avx512f"))) void sum_rows_u16_avx512(const uint16_t* stats, const int32_t* idx, std::size_t n,
                                                             int32_t* acc) {
  __m512i a[V];
  for (int k = 0; k < V; ++k) a[k] = _mm512_setzero_si512();
  for (std::size_t j = 0; j < n; ++j) {
    const uint16_t* row = stats + static_cast<std::size_t>(idx[j]) * (16 * V);
    for (int k = 0; k < V; ++k)
      a[k] = _mm512_add_epi32(a[k], _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + 16 * k))));
  }
  for (int k = 0; k < V; ++k) _mm512_storeu_si512(acc + 16 * k, a[k]);
}
#endif

void sum_rows_u16(const uint16_t* stats, std::size_t stride, const int32_t* idx, std::size_t n, int32_t* acc) {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  if (avx512) {
    switch (stride / 16) {  // stride is a multiple of 16
      case 1: return sum_rows_u16_avx512<1>(stats, idx, n, acc);
      case 2: return sum_rows_u16_avx512<2>(stats, idx, n, acc);
      case 3: return sum_rows_u16_avx512<3>(stats, idx, n, acc);
      case 4: return sum_rows_u16_avx512<4>(stats, idx, n, acc);
      case 5: return sum_rows_u16_avx512<5>(stats, idx, n, acc);
      case 6: return sum_rows_u16_avx512<6>(stats, idx, n, acc);
      case 7: return sum_rows_u16_avx512<7>(stats, idx, n, acc);
      case 8: return sum_rows_u16_avx512<8>(stats, idx, n, acc);
      default: break;
    }
  }
#endif
  sum_rows_u16_generic(stats, stride, idx, n, acc);
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void sum_rows_float(const float* stats, std::size_t stride,
                                                                                  const int32_t* idx, std::size_t n,
                                                                                  float* acc) {
  sum_columns(stats, stride, idx, n, acc);
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void sum_rows_double(const double* stats, std::size_t stride,
                                                                                   const int32_t* idx, std::size_t n,
                                                                                   double* acc) {
  sum_columns(stats, stride, idx, n, acc);
}

template <class Acc, class Cell>
void sum_rows(const std::vector<Cell>& stats, std::size_t stride, std::size_t cols, const ResamplePlan& plan,
              std::size_t r0, std::size_t r1, std::vector<double>& sums) {
  std::vector<Acc> acc(stride);
  std::vector<int32_t> idx(plan.segments());  // one resample at a time: stays in L1
  for (std::size_t r = r0; r < r1; ++r) {
    plan.indices(r, idx.data());
    std::fill(acc.begin(), acc.end(), Acc(0));
    if constexpr (std::is_same_v<Cell, uint16_t>)
      sum_rows_u16(stats.data(), stride, idx.data(), idx.size(), acc.data());
    else if constexpr (std::is_same_v<Cell, float>)
      sum_rows_float(stats.data(), stride, idx.data(), idx.size(), acc.data());
    else
      sum_rows_double(stats.data(), stride, idx.data(), idx.size(), acc.data());
    for (std::size_t k = 0; k < cols; ++k) sums[r * cols + k] = static_cast<double>(acc[k]);
  }
}

// Summed on `threads` workers (the caller's --threads: a pipeline job's share of the cores, which
// the trainings beside it need; the result does not depend on the count).
std::vector<std::vector<std::vector<double>>> resample_sums(const std::vector<SegmentStats>& systems,
                                                            const ResamplePlan& plan, int threads) {
  const std::size_t R = plan.samples(), n = systems[0].size(), dims = systems[0].empty() ? 0 : systems[0][0].size();
  const std::size_t S = systems.size(), cols = S * dims;
  bool integral = true;
  double max_sum = 0, max_cell = 0;
  for (const auto& sys : systems) {
    std::vector<double> col(dims, 0.0);
    for (const auto& row : sys)
      for (std::size_t k = 0; k < dims; ++k) {
        integral = integral && row[k] == std::floor(row[k]) && row[k] >= 0;
        col[k] += row[k];
        max_cell = std::max(max_cell, row[k]);
      }
    for (double v : col) max_sum = std::max(max_sum, v);
  }
  const bool narrow = integral && max_cell < 65536.0 && max_cell * static_cast<double>(n) < 2147483648.0;
  // a resample can draw the heaviest rows repeatedly: keep a 4x margin below 2^24
  const bool single = integral && max_sum * 4 < 16777216.0;
  std::vector<double> sums(R * cols, 0.0);
  auto run = [&](auto acc_zero, auto cell_zero) {
    using Acc = decltype(acc_zero);
    using Cell = decltype(cell_zero);
    const std::size_t stride = (cols + 15) / 16 * 16;  // whole vectors per row; padding stays 0
    std::vector<Cell> stats(n * stride, Cell(0));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t s = 0; s < S; ++s)
        for (std::size_t k = 0; k < dims; ++k) stats[i * stride + s * dims + k] = static_cast<Cell>(systems[s][i][k]);
    const std::size_t workers = static_cast<std::size_t>(std::max(1, threads));
    std::vector<std::thread> pool;
    for (std::size_t w = 0; w < workers; ++w)
      pool.emplace_back([&, w]() { sum_rows<Acc>(stats, stride, cols, plan, w * R / workers, (w + 1) * R / workers, sums); });
    for (auto& t : pool) t.join();
  };
  if (narrow) run(int32_t(0), uint16_t(0));
  else if (single) run(0.0f, 0.0f);
  else run(0.0, 0.0);
  std::vector<std::vector<std::vector<double>>> out(S, std::vector<std::vector<double>>(R, std::vector<double>(dims)));
  for (std::size_t r = 0; r < R; ++r)
    for (std::size_t s = 0; s < S; ++s)
      for (std::size_t k = 0; k < dims; ++k) out[s][r][k] = sums[r * cols + s * dims + k];
  return out;
}
}  // namespace

std::vector<BootstrapSummary> paired_bootstrap(const std::vector<SegmentStats>& systems, const ScoreFn& exact_score,
                                               const ScoreFn& resample_score,
                                               const ResamplePlan& plan, int threads, bool float32_scores) {
  std::vector<BootstrapSummary> out(systems.size());
  std::vector<std::vector<double>> samples(systems.size());
  const auto sums = resample_sums(systems, plan, threads);
  auto work = [&](std::size_t i) {
    samples[i].reserve(plan.samples());
    for (const auto& summed : sums[i]) samples[i].push_back(resample_score(summed));
    out[i].score = exact_score(column_totals(systems[i]));
    std::tie(out[i].mean, out[i].ci) = mean_and_ci(samples[i], float32_scores);
  };
  std::vector<std::thread> pool;
  const std::size_t nthreads = static_cast<std::size_t>(std::max(1, threads));
  for (std::size_t t = 0; t < nthreads; ++t)
    pool.emplace_back([&, t]() {
      for (std::size_t i = t; i < systems.size(); i += nthreads) work(i);
    });
  for (auto& th : pool) th.join();
  for (std::size_t i = 0; i < systems.size(); ++i) out[i].samples = samples[i];
  const auto& base = samples[0];
  for (std::size_t i = 1; i < systems.size(); ++i) {
    const double observed = std::abs(out[0].score - out[i].score);
    std::vector<double> diffs(base.size());
    for (std::size_t k = 0; k < base.size(); ++k) {
      diffs[k] = float32_scores ? static_cast<double>(std::abs(static_cast<float>(samples[i][k]) - static_cast<float>(base[k])))
                                : std::abs(samples[i][k] - base[k]);
    }
    std::size_t c = 0;
    if (float32_scores) {  // NumPy compares float32 arrays with a Python float at float32 precision
      const float mean_diff = static_cast<float>(numpy_mean<float>(diffs));
      const float threshold = static_cast<float>(observed);
      for (double d : diffs) c += (static_cast<float>(d) - mean_diff) > threshold ? 1 : 0;
    } else {
      const double mean_diff = numpy_mean<double>(diffs);
      for (double d : diffs) c += (d - mean_diff) > observed ? 1 : 0;
    }
    out[i].p_value = static_cast<double>(c + 1) / static_cast<double>(diffs.size() + 1);
    out[i].koehn_p_value = koehn_p_value(base, samples[i]);
  }
  return out;
}

std::vector<std::vector<uint8_t>> ar_selections(std::size_t n, int n_trials, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<uint8_t>> out(static_cast<std::size_t>(n_trials), std::vector<uint8_t>(n));
  for (auto& trial : out)
    for (auto& v : trial) v = static_cast<uint8_t>(rng() & 1u);
  return out;
}

std::vector<std::vector<uint8_t>> read_selections(const std::string& path, std::size_t n_segments) {
  LineReader in(path);
  std::vector<std::vector<uint8_t>> out;
  std::string line, tok;
  while (in.next(line)) {
    std::istringstream ss(line);
    std::vector<uint8_t> trial;
    while (ss >> tok) {
      if (tok == "1" || tok == "True" || tok == "true") trial.push_back(1);
      else if (tok == "0" || tok == "False" || tok == "false") trial.push_back(0);
      else in.fail("expected 0/1, got '" + tok + "'");
    }
    if (trial.size() != n_segments)
      in.fail("trial has " + std::to_string(trial.size()) + " values, expected " + std::to_string(n_segments));
    out.push_back(std::move(trial));
  }
  if (out.empty()) throw InputError(path, 0, "no trials");
  return out;
}

std::vector<BootstrapSummary> paired_ar(const std::vector<SegmentStats>& systems, const ScoreFn& score,
                                        const std::vector<std::vector<uint8_t>>& selections, int threads) {
  std::vector<BootstrapSummary> out(systems.size());
  const auto base_total = column_totals(systems[0]);
  out[0].score = score(base_total);
  auto work = [&](std::size_t s) {
    const auto sys_total = column_totals(systems[s]);
    out[s].score = score(sys_total);
    const double observed = std::abs(out[0].score - out[s].score);
    const std::size_t dims = sys_total.size();
    std::vector<double> a(dims), b(dims);
    std::size_t c = 0;
    for (const auto& trial : selections) {
      // A = system totals with the selected rows swapped for the baseline's; B = the complement
      a = sys_total;
      b = base_total;
      for (std::size_t i = 0; i < trial.size(); ++i) {
        if (!trial[i]) continue;
        const auto& rb = systems[0][i];
        const auto& rs = systems[s][i];
        for (std::size_t k = 0; k < dims; ++k) {
          a[k] += rb[k] - rs[k];
          b[k] += rs[k] - rb[k];
        }
      }
      c += std::abs(score(a) - score(b)) > observed ? 1 : 0;
    }
    out[s].p_value = static_cast<double>(c + 1) / static_cast<double>(selections.size() + 1);
    out[s].mean = out[s].ci = 0;
  };
  std::vector<std::thread> pool;
  const std::size_t nthreads = static_cast<std::size_t>(std::max(1, threads));
  for (std::size_t t = 0; t < nthreads; ++t)
    pool.emplace_back([&, t]() {
      for (std::size_t i = 1 + t; i < systems.size(); i += nthreads) work(i);
    });
  for (auto& th : pool) th.join();
  return out;
}

double koehn_p_value(const std::vector<double>& baseline_scores, const std::vector<double>& system_scores) {
  std::size_t not_better = 0;
  for (std::size_t k = 0; k < baseline_scores.size(); ++k) not_better += system_scores[k] <= baseline_scores[k] ? 1 : 0;
  return static_cast<double>(not_better) / static_cast<double>(baseline_scores.size());
}

}  // namespace synmt::eval
