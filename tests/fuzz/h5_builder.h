#pragma once
// Builds a small HDF5 file whose arrays and attributes the fuzzer chooses (tests/fuzz/README.md):
// libhdf5's own parser is not what these targets test (and is not this project's to fix); the
// readers' checks of what a well-formed HDF5 file holds are: missing arrays and attributes,
// lengths, offsets, ids, shapes.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/hdf5_file.h"

namespace synmt::fuzz {

class H5Builder {
 public:
  H5Builder(FuzzedDataProvider& in, const std::string& path) : in_(in), file_(path, H5File::Mode::Create) {}

  // Small values most of the time (so that offsets and ids often make sense), anything sometimes.
  template <class T>
  T value(T small_max) {
    if (in_.ConsumeIntegralInRange<int>(0, 7) == 0) return in_.ConsumeIntegral<T>();
    return in_.ConsumeIntegralInRange<T>(static_cast<T>(-1), small_max);
  }
  float real(float small_max) {
    switch (in_.ConsumeIntegralInRange<int>(0, 7)) {
      case 0: return std::nanf("");
      case 1: return in_.ConsumeFloatingPoint<float>();
      default: return in_.ConsumeFloatingPointInRange<float>(-1.0f, small_max);
    }
  }
  // With probability ~7/8 the array is written; its values are `count` draws.
  void ints(const std::string& name, std::size_t count, int32_t small_max) {
    if (!present()) return;
    std::vector<int32_t> v;
    for (std::size_t i = 0; i < count && in_.remaining_bytes() > 0; ++i) v.push_back(value<int32_t>(small_max));
    file_.write(name, v);
  }
  void reals(const std::string& name, std::size_t count, float small_max) {
    if (!present()) return;
    std::vector<float> v;
    for (std::size_t i = 0; i < count && in_.remaining_bytes() > 0; ++i) v.push_back(real(small_max));
    file_.write(name, v);
  }
  // Offsets: usually a running sum of small lengths from 0, sometimes arbitrary.
  void offsets(const std::string& name, std::size_t items) {
    if (!present()) return;
    std::vector<int64_t> v{in_.ConsumeIntegralInRange<int>(0, 15) == 0 ? value<int64_t>(4) : 0};
    for (std::size_t i = 0; i < items && in_.remaining_bytes() > 0; ++i)
      v.push_back(in_.ConsumeIntegralInRange<int>(0, 15) == 0 ? value<int64_t>(64) : next(v.back(), in_.ConsumeIntegralInRange<int64_t>(0, 6)));
    file_.write(name, v);
  }
  void attribute(const std::string& name, const std::string& usual) {
    if (!present()) return;
    file_.set_attribute(name, in_.ConsumeBool() ? usual : in_.ConsumeRandomLengthString(32));
  }
  bool present() { return in_.ConsumeIntegralInRange<int>(0, 7) != 0; }
  // offset + step without the harness's own signed overflow (an arbitrary offset may precede it)
  static int64_t next(int64_t offset, int64_t step) { return offset > (int64_t{1} << 62) ? offset : offset + step; }
  FuzzedDataProvider& input() { return in_; }

 private:
  FuzzedDataProvider& in_;
  H5File file_;
};

}  // namespace synmt::fuzz
