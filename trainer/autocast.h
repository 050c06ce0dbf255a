#pragma once
// Mixed precision for the ops run while a scope lives (torch.autocast in C++).
#include <ATen/autocast_mode.h>
#include <c10/core/DeviceType.h>
#include <c10/core/ScalarType.h>

namespace synmt {

// Matrix products and convolutions in `dtype` (bf16), reductions, softmax and losses in float32;
// parameters stay float32 (the master weights). Restores the previous state on exit and clears
// the cast cache when the outermost scope ends, as torch.autocast does. disabled: does nothing.
// LibTorch has the pieces (at::autocast) but no RAII guard in its C++ API.
class AutocastScope {
 public:
  AutocastScope(c10::DeviceType device, c10::ScalarType dtype, bool enabled = true)
      : device_(device), active_(enabled) {
    if (!active_) return;
    was_enabled_ = at::autocast::is_autocast_enabled(device_);
    was_dtype_ = at::autocast::get_autocast_dtype(device_);
    at::autocast::set_autocast_enabled(device_, true);
    at::autocast::set_autocast_dtype(device_, dtype);
    at::autocast::increment_nesting();
  }
  ~AutocastScope() {
    if (!active_) return;
    if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
    at::autocast::set_autocast_enabled(device_, was_enabled_);
    at::autocast::set_autocast_dtype(device_, was_dtype_);
  }
  AutocastScope(const AutocastScope&) = delete;
  AutocastScope& operator=(const AutocastScope&) = delete;

  static bool is_enabled(c10::DeviceType device) { return at::autocast::is_autocast_enabled(device); }

 private:
  c10::DeviceType device_;
  bool active_;
  bool was_enabled_ = false;
  c10::ScalarType was_dtype_ = c10::ScalarType::Float;
};

}  // namespace synmt
