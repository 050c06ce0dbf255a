#include "core/ragged.h"

#include "core/error.h"

namespace synmt {

template <class T>
void Ragged<T>::add(const T* data, const std::vector<int32_t>& shape) {
  if (size() > 0 && static_cast<int>(shape.size()) != rank)
    throw std::invalid_argument("ragged array: block of rank " + std::to_string(shape.size()) + " after rank " + std::to_string(rank));
  rank = static_cast<int>(shape.size());
  std::size_t n = 1;
  for (auto d : shape) n *= static_cast<std::size_t>(d);
  shapes.insert(shapes.end(), shape.begin(), shape.end());
  add_flat(data, n);
}

namespace {
template <class T>
std::vector<T> read_values(const H5File& f, const std::string& name);
template <>
std::vector<float> read_values<float>(const H5File& f, const std::string& name) { return f.read_float(name); }
template <>
std::vector<int32_t> read_values<int32_t>(const H5File& f, const std::string& name) { return f.read_int32(name); }
}  // namespace

template <class T>
void write_ragged(H5File& file, const RaggedNames& names, const Ragged<T>& array) {
  file.write(names.values, array.values);
  file.write(names.offsets, array.offsets);
  if (!names.shapes.empty()) file.write(names.shapes, array.shapes);
}

void check_offsets(const std::string& path, const std::vector<int64_t>& offsets, std::size_t values, const std::string& what) {
  if (offsets.empty() || offsets.front() != 0 || offsets.back() < 0 || static_cast<std::size_t>(offsets.back()) != values)
    throw InputError(path, 0, what + "offsets do not cover the values (truncated or corrupt file)");
  for (std::size_t i = 1; i < offsets.size(); ++i)
    if (offsets[i] < offsets[i - 1]) throw InputError(path, 0, what + "offsets are not monotone (corrupt file)");
}

template <class T>
Ragged<T> read_ragged(const H5File& file, const RaggedNames& names) {
  Ragged<T> a;
  const std::string what = "array '" + names.values + "': ";
  for (const auto& name : {names.values, names.offsets})
    if (!file.has(name)) throw InputError(file.path(), 0, what + "dataset '" + name + "' is missing");
  a.values = read_values<T>(file, names.values);
  a.offsets = file.read_int64(names.offsets);
  check_offsets(file.path(), a.offsets, a.values.size(), what);
  if (!names.shapes.empty() && file.has(names.shapes)) {
    a.shapes = file.read_int32(names.shapes);
    if (a.size() == 0) return a;
    if (a.shapes.size() % a.size() != 0) throw InputError(file.path(), 0, what + "shapes do not give every item the same rank");
    a.rank = static_cast<int>(a.shapes.size() / a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      int64_t n = 1;
      for (auto d : a.shape(i)) {
        if (d < 0) throw InputError(file.path(), 0, what + "item " + std::to_string(i + 1) + ": negative dimension");
        n = d == 0 || n <= a.block_size(i) ? n * d : a.block_size(i) + 1;  // past the block size: no overflow, no match
      }
      if (n != a.block_size(i))
        throw InputError(file.path(), 0, what + "item " + std::to_string(i + 1) + ": shape does not match its block size");
    }
  }
  return a;
}

template struct Ragged<float>;
template struct Ragged<int32_t>;
template void write_ragged<float>(H5File&, const RaggedNames&, const Ragged<float>&);
template void write_ragged<int32_t>(H5File&, const RaggedNames&, const Ragged<int32_t>&);
template Ragged<float> read_ragged<float>(const H5File&, const RaggedNames&);
template Ragged<int32_t> read_ragged<int32_t>(const H5File&, const RaggedNames&);

}  // namespace synmt
