#pragma once
// Builds the small HDF5 files of the structured targets (tests/fuzz/README.md): libhdf5's own
// parser is not what these targets test (and is not this project's to fix); the readers' checks of
// what a well-formed HDF5 file holds are: missing arrays and attributes, lengths, offsets, ids,
// shapes. A target plans a file as its writer would write it (arrays and attributes valid by
// construction, sizes and values drawn from the input), then about half of the inputs get one or
// two damages (an array or attribute dropped, one value changed, an array cut or lengthened, two
// neighbours swapped, an attribute replaced). So most files reach the checks behind the first
// ones, a valid file must be accepted (a target aborts if one is refused) and a damaged one must be
// refused or satisfy the reader's guarantees.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "core/hdf5_file.h"
#include "tests/fuzz/fuzz_util.h"

namespace synmt::fuzz {

class H5Plan {
 public:
  explicit H5Plan(FuzzedDataProvider& in) : in_(in) {}

  FuzzedDataProvider& input() { return in_; }
  int64_t draw(int64_t lo, int64_t hi) { return in_.ConsumeIntegralInRange<int64_t>(lo, hi); }
  bool chance(int one_in) { return in_.ConsumeIntegralInRange<int>(1, one_in) == 1; }

  template <class T>
  void array(const std::string& name, std::vector<T> values) {
    arrays_[name] = std::move(values);
  }
  void attribute(const std::string& name, const std::string& value) { attributes_[name] = value; }

  // Offsets of blocks of these lengths: 0, then running sums.
  static std::vector<int64_t> offsets_of(const std::vector<int64_t>& lengths) {
    std::vector<int64_t> offsets{0};
    for (int64_t n : lengths) offsets.push_back(offsets.back() + n);
    return offsets;
  }

  // No damage for about half of the inputs, else one or two; returns how many were applied.
  int damage() {
    if (in_.ConsumeBool()) return 0;
    const int count = in_.ConsumeIntegralInRange<int>(1, 2);
    for (int i = 0; i < count; ++i) damage_once();
    return count;
  }

  // The planned arrays after damage (an empty vector when dropped), for targets whose writer
  // takes them (the parse cache stores a checksum of what it is given).
  template <class T>
  std::vector<T> get(const std::string& name) const {
    const auto it = arrays_.find(name);
    if (it == arrays_.end() || !std::holds_alternative<std::vector<T>>(it->second)) return {};
    return std::get<std::vector<T>>(it->second);
  }
  std::string get_attribute(const std::string& name) const {
    const auto it = attributes_.find(name);
    return it == attributes_.end() ? std::string() : it->second;
  }

  void write(const std::string& path) const {
    H5File file(path, H5File::Mode::Create);
    for (const auto& entry : arrays_) std::visit([&](const auto& v) { file.write(entry.first, v); }, entry.second);
    for (const auto& [name, value] : attributes_) file.set_attribute(name, value);
  }

 private:
  using Array = std::variant<std::vector<int32_t>, std::vector<int64_t>, std::vector<float>, std::vector<uint8_t>>;

  template <class Map>
  auto pick(Map& map) {
    return std::next(map.begin(), in_.ConsumeIntegralInRange<std::ptrdiff_t>(0, static_cast<std::ptrdiff_t>(map.size()) - 1));
  }

  // A replacement value: near the usual ones mostly (off by one, -1, 0), anything sometimes.
  template <class T>
  T other(T was) {
    if constexpr (std::is_floating_point_v<T>) {
      switch (in_.ConsumeIntegralInRange<int>(0, 4)) {
        case 0: return std::numeric_limits<T>::quiet_NaN();
        case 1: return std::numeric_limits<T>::infinity();
        case 2: return in_.ConsumeFloatingPoint<T>();
        default: return was + in_.ConsumeFloatingPointInRange<T>(-2, 2);
      }
    } else {
      if (in_.ConsumeIntegralInRange<int>(0, 3) == 0) return in_.ConsumeIntegral<T>();
      const int step = in_.ConsumeIntegralInRange<int>(-2, 2);  // the harness's own arithmetic must not overflow
      if ((step > 0 && was > std::numeric_limits<T>::max() - step) || (step < 0 && was < std::numeric_limits<T>::min() - step)) return was;
      return static_cast<T>(was + step);
    }
  }

  void damage_once() {
    const int kind = in_.ConsumeIntegralInRange<int>(0, 5);
    if (kind <= 1 && !attributes_.empty()) {
      auto it = pick(attributes_);
      if (kind == 0)
        attributes_.erase(it);
      else
        it->second = in_.ConsumeRandomLengthString(24);
      return;
    }
    if (arrays_.empty()) return;
    auto it = pick(arrays_);
    std::visit(
        [&](auto& v) {
          using T = typename std::decay_t<decltype(v)>::value_type;
          switch (kind) {
            case 2:
              arrays_.erase(it);
              return;
            case 3:
              if (!v.empty()) {
                auto& x = v[in_.ConsumeIntegralInRange<std::size_t>(0, v.size() - 1)];
                x = other<T>(x);
              }
              return;
            case 4:
              if (in_.ConsumeBool() && !v.empty())
                v.resize(in_.ConsumeIntegralInRange<std::size_t>(0, v.size() - 1));
              else
                for (int k = in_.ConsumeIntegralInRange<int>(1, 3); k > 0; --k) v.push_back(other<T>(v.empty() ? T{} : v.back()));
              return;
            default:
              if (v.size() >= 2) {
                const std::size_t i = in_.ConsumeIntegralInRange<std::size_t>(0, v.size() - 2);
                std::swap(v[i], v[i + 1]);
              }
          }
        },
        it->second);
  }

  FuzzedDataProvider& in_;
  std::map<std::string, Array> arrays_;
  std::map<std::string, std::string> attributes_;
};

// Runs `body` and returns the clear error it ended with ("" when none), aborting on any other
// exception as expect_clear_errors does.
template <class Body>
std::string clear_error_of(Body&& body) {
  std::string error;
  expect_clear_errors([&] {
    try {
      body();
    } catch (const InputError& e) {
      error = e.what();
      throw;
    } catch (const ConfigError& e) {
      error = e.what();
      throw;
    }
  });
  return error;
}

}  // namespace synmt::fuzz
