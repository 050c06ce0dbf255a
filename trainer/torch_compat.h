#pragma once
// Every difference between LibTorch 1.13 (Debian, CI) and LibTorch 2.x (GPU machines) lives here.
#include <torch/version.h>

namespace synmt::compat {
inline constexpr bool kTorch2 = TORCH_VERSION_MAJOR >= 2;
inline constexpr int kTorchMajor = TORCH_VERSION_MAJOR;
inline constexpr int kTorchMinor = TORCH_VERSION_MINOR;
}  // namespace synmt::compat
