#pragma once
// The per-segment statistics and score functions that synmt-score's paired significance tests
// (paired-bs, paired-ar) resample, for one metric over several systems' outputs.
#include <string>
#include <vector>

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

}  // namespace synmt::eval
