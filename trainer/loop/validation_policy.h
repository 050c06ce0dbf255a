#pragma once
// What a validation result does to a run (torch-free): keep-best (a lower value is better: the
// perplexity, or -BLEU), early stopping after `patience` validations without improvement, and
// halving the learning rate, by one of two rules the papers differ on:
//   rises        the value is worse than the previous validation's (Tran & Bisk §5.3: "if the
//                validation perplexity increases"; Hashimoto & Tsuruoka §4.2: "halved when
//                translation accuracy decreased")
//   no_new_best  the value is no new best (ReduceLROnPlateau with patience 0: the released
//                SA-NMT code's, and most toolkits')
// and the run stops at the halving that makes `max_halvings` (SA-NMT: "we stop training after
// decaying the learning rate five times"; 0 = never stop for halvings).
#include <string>
#include <vector>

#include "trainer/loop/training_cursor.h"

namespace synmt {

enum class HalvingRule { kRises, kNoNewBest };
HalvingRule parse_halving_rule(const std::string& name);  // rises | no_new_best

struct ValidationPolicy {
  int patience = 0;  // >0: stop after this many validations in a row without improvement
  bool halve_lr = true;
  HalvingRule rule = HalvingRule::kNoNewBest;
  int max_halvings = 5;  // stop at this halving; 0: never
};

struct ValidationDecision {
  bool improved = false;                  // a new best: the caller writes best.pt
  std::vector<std::string> stop_reasons;  // empty: go on; else why the run stops (for the log)
  bool stop() const { return !stop_reasons.empty(); }
};

// Updates the cursor's best and previous values, bad-validation count, halvings and base learning rate.
ValidationDecision apply_validation(const ValidationPolicy& policy, TrainingCursor& cursor, double value, double ppl,
                                    double bleu);

}  // namespace synmt
