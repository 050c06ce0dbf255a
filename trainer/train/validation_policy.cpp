#include "trainer/train/validation_policy.h"

namespace synmt {

ValidationDecision apply_validation(const ValidationPolicy& policy, TrainingCursor& cur, double value, double ppl, double bleu) {
  ValidationDecision d;
  if (value < cur.best) {
    cur.best = value;
    cur.best_ppl = ppl;
    cur.best_bleu = bleu;
    cur.best_epoch = cur.epoch;
    cur.bad_validations = 0;
    d.improved = true;
    return d;
  }
  ++cur.bad_validations;
  if (policy.patience > 0 && cur.bad_validations >= policy.patience)
    d.stop_reasons.push_back("training: early stop, " + std::to_string(policy.patience) + " validations without improvement");
  if (policy.halve_lr_on_plateau) {
    if (++cur.halvings > policy.max_halvings)
      d.stop_reasons.push_back("training: stopping after " + std::to_string(policy.max_halvings) + " learning-rate halvings");
    cur.lr /= 2;
  }
  return d;
}

}  // namespace synmt
