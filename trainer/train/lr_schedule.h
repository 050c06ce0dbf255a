#pragma once
// Learning-rate schedules as closed forms of the update number, so that a resumed run computes
// exactly the rate the uninterrupted one used. Halve-on-plateau (SA-NMT, LGP) is not a function of
// the step: the trainer keeps it as a factor on the base rate and applies it on top of these.
#include <cstdint>
#include <string>

namespace synmt {

struct LrSchedule {
  std::string kind = "constant";  // constant | inverse_sqrt | exponential
  int64_t warmup_steps = 0;       // linear warm-up from warmup_init_lr (constant, inverse_sqrt)
  double warmup_init_lr = 0.0;
  double decay_rate = 0.5;        // exponential: lr * rate^floor(t / decay_every)
  int64_t decay_every = 1;
  std::string decay_unit = "epochs";  // steps | epochs: what t counts

  void validate() const;  // ConfigError on an unknown kind/unit or a non-positive period
};

// The rate of update number `step` (1-based) in epoch `epoch` (1-based) for base rate `lr`.
// inverse_sqrt is fairseq's formula: warm-up to lr at `warmup_steps`, then lr * sqrt(warmup_steps /
// step). fairseq sets the rate of update n from its count before it (step_update(n - 1)), so its
// schedule runs one update behind this one: the peak at update warmup_steps + 1 there, a relative
// difference below 1 / (2 n) after the warm-up.
double scheduled_lr(const LrSchedule& schedule, double lr, int64_t step, int epoch);

}  // namespace synmt
