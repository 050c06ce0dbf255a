#pragma once
// A small RAII layer over the HDF5 C API: 1-D datasets of int32/int64/float/bytes and string attributes,
// which is all synmt's dataset and cache files hold. Failures (missing file, corrupt file, missing
// dataset) become InputError naming the file, instead of HDF5's error-stack dump.
#include <cstdint>
#include <string>
#include <vector>

namespace synmt {

class H5File {
 public:
  enum class Mode { Read, Create };
  H5File(const std::string& path, Mode mode);
  ~H5File();  // closes without reporting errors: writers call close()
  // Flushes and closes; a failed write (a full disk) throws naming the file. Writers call it
  // before renaming their output into place.
  void close();
  H5File(const H5File&) = delete;
  H5File& operator=(const H5File&) = delete;

  void write(const std::string& name, const std::vector<int32_t>& data);
  void write(const std::string& name, const std::vector<int64_t>& data);
  void write(const std::string& name, const std::vector<float>& data);
  void write(const std::string& name, const std::vector<uint8_t>& data);  // bytes (UTF-8 text)
  std::vector<int32_t> read_int32(const std::string& name) const;
  std::vector<int64_t> read_int64(const std::string& name) const;
  std::vector<float> read_float(const std::string& name) const;
  std::vector<uint8_t> read_bytes(const std::string& name) const;
  bool has(const std::string& name) const;

  void set_attribute(const std::string& name, const std::string& value);
  std::string attribute(const std::string& name) const;  // throws when absent
  bool has_attribute(const std::string& name) const;
  const std::string& path() const { return path_; }

 private:
  template <class T>
  void write_impl(const std::string& name, const std::vector<T>& data, long type);
  template <class T>
  std::vector<T> read_impl(const std::string& name, long type) const;
  std::string path_;
  long id_ = -1;  // hid_t, kept as long so hdf5.h stays out of the header
};

}  // namespace synmt
