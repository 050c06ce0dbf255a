#pragma once
// What a validation result does to a run (torch-free): keep-best (a lower value is better: the
// perplexity, or -BLEU), early stopping after `patience` validations without improvement, and
// halving the learning rate on a plateau, stopping after `max_halvings` halvings.
#include <string>
#include <vector>

#include "trainer/train/training_cursor.h"

namespace synmt {

struct ValidationPolicy {
  int patience = 0;  // >0: stop after this many validations in a row without improvement
  bool halve_lr_on_plateau = true;
  int max_halvings = 5;
};

struct ValidationDecision {
  bool improved = false;                  // a new best: the caller writes best.pt
  std::vector<std::string> stop_reasons;  // empty: go on; else why the run stops (for the log)
  bool stop() const { return !stop_reasons.empty(); }
};

// Updates the cursor's best values, bad-validation count, halvings and base learning rate.
ValidationDecision apply_validation(const ValidationPolicy& policy, TrainingCursor& cursor, double value, double ppl,
                                    double bleu);

}  // namespace synmt
