#include "trainer/train/lr_schedule.h"

#include <cmath>

#include "core/error.h"

namespace synmt {

void LrSchedule::validate() const {
  if (kind != "constant" && kind != "inverse_sqrt" && kind != "exponential")
    throw ConfigError("train.lr_schedule: unknown schedule '" + kind + "' (constant | inverse_sqrt | exponential)");
  if (decay_unit != "steps" && decay_unit != "epochs")
    throw ConfigError("train.decay_unit: '" + decay_unit + "' is neither 'steps' nor 'epochs'");
  if (decay_every <= 0) throw ConfigError("train.decay_every must be positive");
  if (warmup_steps < 0) throw ConfigError("train.warmup_steps must not be negative");
  if (kind == "inverse_sqrt" && warmup_steps == 0) throw ConfigError("train.lr_schedule inverse_sqrt needs warmup_steps > 0");
}

double scheduled_lr(const LrSchedule& s, double lr, int64_t step, int epoch) {
  const double t = static_cast<double>(step);
  const bool warming = s.warmup_steps > 0 && step < s.warmup_steps;
  const double warm = s.warmup_init_lr + (lr - s.warmup_init_lr) * t / static_cast<double>(std::max<int64_t>(1, s.warmup_steps));
  if (s.kind == "inverse_sqrt") return warming ? warm : lr * std::sqrt(static_cast<double>(s.warmup_steps) / t);
  if (s.kind == "exponential") {
    const int64_t count = s.decay_unit == "steps" ? step : epoch - 1;
    return lr * std::pow(s.decay_rate, static_cast<double>(count / s.decay_every));
  }
  return warming ? warm : lr;
}

}  // namespace synmt
