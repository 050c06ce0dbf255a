#include "core/hdf5_file.h"

#include <hdf5.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "core/error.h"

namespace synmt {
namespace {
struct Silence {  // HDF5 prints its error stack by default; we report errors ourselves
  Silence() {
    // Files are closed explicitly (H5File::close reports a failed flush). HDF5's own exit-time
    // cleanup crashes on a file whose close failed (a full disk), turning a clear error into a
    // segfault; it must be switched off before any other HDF5 call.
    H5dont_atexit();
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
};
const Silence silence;

struct Handle {
  hid_t id;
  herr_t (*close)(hid_t);
  ~Handle() {
    if (id >= 0) close(id);
  }
};
}  // namespace

H5File::H5File(const std::string& path, Mode mode) : path_(path) {
  if (mode == Mode::Create) {
    id_ = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (id_ < 0) throw InputError(path, 0, "cannot create HDF5 file");
  } else {
    if (H5Fis_hdf5(path.c_str()) <= 0)  // H5Fis_accessible needs HDF5 >= 1.12; Debian 12 has 1.10
      throw InputError(path, 0, "not a readable HDF5 file (missing, truncated or corrupt)");
    id_ = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (id_ < 0) throw InputError(path, 0, "cannot open HDF5 file (truncated or corrupt)");
  }
}

H5File::~H5File() {
  if (id_ >= 0) H5Fclose(id_);
}

void H5File::close() {
  if (id_ < 0) return;
  errno = 0;
  const herr_t status = H5Fclose(id_);
  const int error = errno;
  id_ = -1;
  if (status < 0)
    throw std::runtime_error("cannot write " + path_ + ": " + (error != 0 ? std::strerror(error) : "HDF5 could not flush the file"));
}

template <class T>
void H5File::write_impl(const std::string& name, const std::vector<T>& data, long type) {
  hsize_t dims[1] = {data.size()};
  Handle space{H5Screate_simple(1, dims, nullptr), H5Sclose};
  Handle plist{H5Pcreate(H5P_DATASET_CREATE), H5Pclose};
  if (!data.empty()) {
    hsize_t chunk[1] = {std::min<hsize_t>(data.size(), 1 << 16)};
    H5Pset_chunk(plist.id, 1, chunk);
    H5Pset_deflate(plist.id, 4);
  }
  Handle set{H5Dcreate2(id_, name.c_str(), type, space.id, H5P_DEFAULT, plist.id, H5P_DEFAULT), H5Dclose};
  if (set.id < 0) throw InputError(path_, 0, "cannot create dataset '" + name + "'");
  errno = 0;
  if (!data.empty() && H5Dwrite(set.id, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) < 0)
    throw std::runtime_error("cannot write dataset '" + name + "' to " + path_ + ": " + std::strerror(errno));
  const hid_t written = set.id;
  set.id = -1;
  if (H5Dclose(written) < 0)  // chunks are flushed here: a full disk fails now
    throw std::runtime_error("cannot write dataset '" + name + "' to " + path_ + ": " + std::strerror(errno));
}

template <class T>
std::vector<T> H5File::read_impl(const std::string& name, long type) const {
  if (!has(name)) throw InputError(path_, 0, "missing dataset '" + name + "'");
  Handle set{H5Dopen2(id_, name.c_str(), H5P_DEFAULT), H5Dclose};
  Handle space{H5Dget_space(set.id), H5Sclose};
  hssize_t n = H5Sget_simple_extent_npoints(space.id);
  if (set.id < 0 || n < 0) throw InputError(path_, 0, "cannot read dataset '" + name + "'");
  std::vector<T> data(static_cast<std::size_t>(n));
  if (n > 0 && H5Dread(set.id, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) < 0)
    throw InputError(path_, 0, "dataset '" + name + "' is corrupt or truncated");
  return data;
}

void H5File::write(const std::string& name, const std::vector<int32_t>& d) { write_impl(name, d, H5T_NATIVE_INT32); }
void H5File::write(const std::string& name, const std::vector<int64_t>& d) { write_impl(name, d, H5T_NATIVE_INT64); }
void H5File::write(const std::string& name, const std::vector<float>& d) { write_impl(name, d, H5T_NATIVE_FLOAT); }
void H5File::write(const std::string& name, const std::vector<uint8_t>& d) { write_impl(name, d, H5T_NATIVE_UINT8); }
std::vector<int32_t> H5File::read_int32(const std::string& n) const { return read_impl<int32_t>(n, H5T_NATIVE_INT32); }
std::vector<int64_t> H5File::read_int64(const std::string& n) const { return read_impl<int64_t>(n, H5T_NATIVE_INT64); }
std::vector<float> H5File::read_float(const std::string& n) const { return read_impl<float>(n, H5T_NATIVE_FLOAT); }
std::vector<uint8_t> H5File::read_bytes(const std::string& n) const { return read_impl<uint8_t>(n, H5T_NATIVE_UINT8); }

bool H5File::has(const std::string& name) const { return H5Lexists(id_, name.c_str(), H5P_DEFAULT) > 0; }

void H5File::set_attribute(const std::string& name, const std::string& value) {
  Handle type{H5Tcopy(H5T_C_S1), H5Tclose};
  H5Tset_size(type.id, std::max<std::size_t>(value.size(), 1));
  Handle space{H5Screate(H5S_SCALAR), H5Sclose};
  Handle attr{H5Acreate2(id_, name.c_str(), type.id, space.id, H5P_DEFAULT, H5P_DEFAULT), H5Aclose};
  if (attr.id < 0 || H5Awrite(attr.id, type.id, value.c_str()) < 0)
    throw InputError(path_, 0, "cannot write attribute '" + name + "'");
}

bool H5File::has_attribute(const std::string& name) const { return H5Aexists(id_, name.c_str()) > 0; }

std::string H5File::attribute(const std::string& name) const {
  if (!has_attribute(name)) throw InputError(path_, 0, "missing attribute '" + name + "'");
  Handle attr{H5Aopen(id_, name.c_str(), H5P_DEFAULT), H5Aclose};
  Handle type{H5Aget_type(attr.id), H5Tclose};
  std::size_t size = H5Tget_size(type.id);
  std::string value(size, '\0');
  Handle mem{H5Tcopy(H5T_C_S1), H5Tclose};
  H5Tset_size(mem.id, size);
  if (H5Aread(attr.id, mem.id, value.data()) < 0) throw InputError(path_, 0, "cannot read attribute '" + name + "'");
  if (auto nul = value.find('\0'); nul != std::string::npos) value.resize(nul);
  return value;
}

}  // namespace synmt
