#include "trainer/loop/validation_policy.h"

#include "core/error.h"

namespace synmt {

HalvingRule parse_halving_rule(const std::string& name) {
  if (name == "rises") return HalvingRule::kRises;
  if (name == "no_new_best") return HalvingRule::kNoNewBest;
  throw ConfigError("train.halve_lr_when: '" + name + "' is none of rises | no_new_best");
}

ValidationDecision apply_validation(const ValidationPolicy& policy, TrainingCursor& cur, double value, double ppl, double bleu) {
  ValidationDecision d;
  const bool rose = value > cur.previous;  // false at the first validation (previous = +inf)
  cur.previous = value;
  if (value < cur.best) {
    cur.best = value;
    cur.best_ppl = ppl;
    cur.best_bleu = bleu;
    cur.best_epoch = cur.epoch;
    cur.bad_validations = 0;
    d.improved = true;
  } else {
    ++cur.bad_validations;
    if (policy.patience > 0 && cur.bad_validations >= policy.patience)
      d.stop_reasons.push_back("training: early stop, " + std::to_string(policy.patience) + " validations without improvement");
  }
  const bool halve = policy.halve_lr && (policy.rule == HalvingRule::kRises ? rose : !d.improved);
  if (halve) {
    cur.lr /= 2;
    if (++cur.halvings >= policy.max_halvings && policy.max_halvings > 0)
      d.stop_reasons.push_back("training: stopping after " + std::to_string(policy.max_halvings) + " learning-rate halvings");
  }
  return d;
}

}  // namespace synmt
