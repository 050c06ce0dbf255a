#pragma once
// Every difference between LibTorch 1.13 (Debian, CI) and LibTorch 2.x (GPU machines) lives here.
#include <ATen/autocast_mode.h>
#include <c10/core/DeviceType.h>
#include <c10/core/ScalarType.h>
#include <torch/version.h>

namespace synmt::compat {
inline constexpr bool kTorch2 = TORCH_VERSION_MAJOR >= 2;
inline constexpr int kTorchMajor = TORCH_VERSION_MAJOR;
inline constexpr int kTorchMinor = TORCH_VERSION_MINOR;

// Mixed precision for the ops run while it lives (torch.autocast in C++): matrix products and
// convolutions in `dtype` (bf16), reductions, softmax and losses in float32; parameters stay
// float32 (the master weights). Restores the previous state on exit and clears the cast cache
// when the outermost scope ends, as torch.autocast does. disabled: does nothing.
class AutocastScope {
 public:
  AutocastScope(c10::DeviceType device, c10::ScalarType dtype, bool enabled = true)
      : device_(device), active_(enabled) {
    if (!active_) return;
    was_enabled_ = is_enabled(device_);
    was_dtype_ = get_dtype(device_);
    set_enabled(device_, true);
    set_dtype(device_, dtype);
    at::autocast::increment_nesting();
  }
  ~AutocastScope() {
    if (!active_) return;
    if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
    set_enabled(device_, was_enabled_);
    set_dtype(device_, was_dtype_);
  }
  AutocastScope(const AutocastScope&) = delete;
  AutocastScope& operator=(const AutocastScope&) = delete;

  // LibTorch 2.4 replaced the per-backend autocast functions (set_enabled / set_cpu_enabled,
  // set_autocast_gpu_dtype / ...) with ones taking the device type.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
  static bool is_enabled(c10::DeviceType d) { return at::autocast::is_autocast_enabled(d); }

 private:
  static void set_enabled(c10::DeviceType d, bool on) { at::autocast::set_autocast_enabled(d, on); }
  static c10::ScalarType get_dtype(c10::DeviceType d) { return at::autocast::get_autocast_dtype(d); }
  static void set_dtype(c10::DeviceType d, c10::ScalarType t) { at::autocast::set_autocast_dtype(d, t); }
#else
  static bool is_enabled(c10::DeviceType d) {
    return d == c10::DeviceType::CPU ? at::autocast::is_cpu_enabled() : at::autocast::is_enabled();
  }

 private:
  static void set_enabled(c10::DeviceType d, bool on) {
    if (d == c10::DeviceType::CPU) at::autocast::set_cpu_enabled(on);
    else at::autocast::set_enabled(on);
  }
  static c10::ScalarType get_dtype(c10::DeviceType d) {
    return d == c10::DeviceType::CPU ? at::autocast::get_autocast_cpu_dtype() : at::autocast::get_autocast_gpu_dtype();
  }
  static void set_dtype(c10::DeviceType d, c10::ScalarType t) {
    if (d == c10::DeviceType::CPU) at::autocast::set_autocast_cpu_dtype(t);
    else at::autocast::set_autocast_gpu_dtype(t);
  }
#endif

  c10::DeviceType device_;
  bool active_;
  bool was_enabled_ = false;
  c10::ScalarType was_dtype_ = c10::ScalarType::Float;
};

}  // namespace synmt::compat
