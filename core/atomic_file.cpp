#include "core/atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace synmt {
namespace {
std::string temp_name(const std::string& path) { return path + ".tmp." + std::to_string(::getpid()); }

void ensure_parent(const std::string& path) {
  auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
}

// Devices and pipes (/dev/null, /dev/stdout, a FIFO) are written in place: renaming a temporary
// file over them would replace the device with a regular file.
bool is_special_file(const std::string& path) {
  std::error_code ec;
  auto status = std::filesystem::status(path, ec);
  return !ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) &&
         !std::filesystem::is_directory(status);
}

void rename_or_throw(const std::string& from, const std::string& to) {
  if (std::rename(from.c_str(), to.c_str()) != 0)
    throw std::runtime_error("cannot rename " + from + " to " + to + ": " + std::strerror(errno));
}
}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  if (path_ == "-") {
    stdout_ = true;
    file_ = stdout;
    return;
  }
  direct_ = is_special_file(path_);
  if (!direct_) ensure_parent(path_);
  temp_ = direct_ ? path_ : temp_name(path_);
  file_ = std::fopen(temp_.c_str(), "wb");
  if (file_ == nullptr) throw std::runtime_error("cannot create " + path_ + " (as " + temp_ + "): " + std::strerror(errno));
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 16);  // a buffer per file: outputs are often written in pairs
}

AtomicFile::~AtomicFile() {
  if (!stdout_ && file_ != nullptr) {
    std::fclose(file_);
    if (!direct_) std::remove(temp_.c_str());
  }
}

void AtomicFile::write(std::string_view data) {
  if (std::fwrite(data.data(), 1, data.size(), file_) != data.size())
    throw std::runtime_error("cannot write " + (stdout_ ? std::string("<stdout>") : path_) + ": " + std::strerror(errno));
}

void AtomicFile::commit() {
  if (stdout_) {
    std::fflush(stdout);
    return;
  }
  if (std::fclose(file_) != 0) {  // the buffered tail is written here: a full disk shows up now
    const int error = errno;
    file_ = nullptr;
    if (!direct_) std::remove(temp_.c_str());
    throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(error));
  }
  file_ = nullptr;
  if (!direct_) rename_or_throw(temp_, path_);
}

AtomicPath::AtomicPath(std::string path) : path_(std::move(path)) {
  direct_ = is_special_file(path_);
  if (!direct_) ensure_parent(path_);
  temp_ = direct_ ? path_ : temp_name(path_);
}

AtomicPath::~AtomicPath() {
  if (!committed_ && !direct_) std::remove(temp_.c_str());
}

void AtomicPath::commit() {
  if (!direct_) rename_or_throw(temp_, path_);
  committed_ = true;
}

void write_file_atomically(const std::string& path, std::string_view content) {
  AtomicFile out(path);
  out.write(content);
  out.commit();
}

}  // namespace synmt
