#pragma once
// One ragged array in an HDF5 file: per item (sentence) a block of values, the blocks
// concatenated, with int64 offsets (items + 1) and optionally each block's shape (items x rank,
// int32). The layout every per-sentence tensor file uses (datasets, parse caches, head scores,
// gate norms, analysis dumps), so that the offset checks live in one place:
//   <values>   T, blocks concatenated
//   <offsets>  int64 (items + 1), offsets[0] = 0, monotone, offsets[items] = |values|
//   <shapes>   int32 (items x rank) when the blocks are tensors; product of a row = its block size
#include <cstdint>
#include <string>
#include <vector>

#include "core/hdf5_file.h"

namespace synmt {

// Analysis dumps (synmt-translate --teacher-forced --dump, read by synmt-trees) are ragged arrays
// of this layout; their format attribute.
inline constexpr const char* kAnalysisFormat = "synmt-analysis-1";

template <class T>
struct Ragged {
  std::vector<T> values;
  std::vector<int64_t> offsets{0};
  std::vector<int32_t> shapes;  // empty: 1-d blocks
  int rank = 0;                 // with shapes

  std::size_t size() const { return offsets.size() - 1; }
  int64_t block_size(std::size_t i) const { return offsets[i + 1] - offsets[i]; }
  const T* block(std::size_t i) const { return values.data() + offsets[i]; }
  std::vector<int32_t> shape(std::size_t i) const {
    return rank ? std::vector<int32_t>(shapes.begin() + static_cast<std::ptrdiff_t>(i * rank),
                                       shapes.begin() + static_cast<std::ptrdiff_t>((i + 1) * rank))
                : std::vector<int32_t>{static_cast<int32_t>(block_size(i))};
  }
  // A 1-d block of n values (arrays without shapes). Named apart from add(data, shape): a braced
  // shape such as {1} would otherwise pick this overload.
  void add_flat(const T* data, std::size_t n) {
    values.insert(values.end(), data, data + n);
    offsets.push_back(static_cast<int64_t>(values.size()));
  }
  // A tensor block; every block of one array has the same rank.
  void add(const T* data, const std::vector<int32_t>& shape);
};

// The offsets check every ragged layout needs (also for files that store their blocks' offsets
// beside other arrays): items + 1 offsets from 0, monotone, the last = `values`. InputError naming
// `path` and `what` otherwise.
void check_offsets(const std::string& path, const std::vector<int64_t>& offsets, std::size_t values, const std::string& what);

// Names of the three datasets of one array in a file.
struct RaggedNames {
  std::string values, offsets, shapes;  // shapes empty: none stored
};

template <class T>
void write_ragged(H5File& file, const RaggedNames& names, const Ragged<T>& array);
// Reads and checks the layout; a violation is an InputError naming the file and the array.
template <class T>
Ragged<T> read_ragged(const H5File& file, const RaggedNames& names);

}  // namespace synmt
