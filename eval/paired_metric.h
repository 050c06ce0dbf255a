#pragma once
// The per-segment statistics and score functions that synmt-score's paired significance tests
// (paired-bs, paired-ar) resample, for one metric over several systems' outputs.
#include <string>
#include <vector>

#include "core/config.h"
#include "eval/bleu.h"
#include "eval/chrf.h"
#include "eval/ribes.h"
#include "eval/significance.h"

namespace synmt::eval {

struct PairedMetric {
  std::vector<SegmentStats> stats;  // per system, one row per segment
  ScoreFn exact;                    // corpus score from summed rows (the reported score)
  ScoreFn resampled;                // the same in the precision sacreBLEU resamples with
  std::string signature;
};

// metric: bleu | chrf | ribes (a ConfigError otherwise). BLEU's references are prepared once and
// the systems' statistics extracted on `threads` threads. RIBES rows are [sentence score, 1]
// ([0, 0] where every reference is empty): a resample's score is the mean over the selected.
PairedMetric paired_metric(const std::string& metric, const std::vector<std::vector<std::string>>& outputs,
                           const std::vector<std::vector<std::string>>& refs, const BleuOptions& bleu_options,
                           const ChrfOptions& chrf_options, const RibesOptions& ribes_options, int threads);

// The JSON report of a paired test (synmt-score paired-bs / paired-ar, synmt-trees paired-bs): one
// object per output, the baseline first (p-values null), the test's signature in every object;
// Koehn's p-value with a bootstrap only. make_table.py reads it.
Json paired_report(const std::vector<std::string>& names, const std::vector<BootstrapSummary>& results,
                   const std::string& signature, bool bootstrap);

}  // namespace synmt::eval
