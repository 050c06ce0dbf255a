#pragma once
// Outputs appear complete or not at all: data goes to "<path>.tmp.<pid>" and is renamed over <path>
// by commit(). A writer destroyed without commit() (an exception, a crash) leaves no partial file that
// Snakemake or a later stage could mistake for a finished output.
#include <cstdio>
#include <string>
#include <string_view>

namespace synmt {

class AtomicFile {
 public:
  explicit AtomicFile(std::string path);  // "-" writes straight to stdout
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(std::string_view data);
  void write_line(std::string_view line) { write(line); write("\n"); }
  const std::string& temp_path() const { return temp_; }
  void commit();

 private:
  std::string path_, temp_;
  std::FILE* file_ = nullptr;
  bool stdout_ = false;
  bool direct_ = false;  // a device or pipe: written in place
};

// For outputs written by a library (HDF5, torch::save): write to temp_path(), then rename.
class AtomicPath {
 public:
  explicit AtomicPath(std::string path);
  ~AtomicPath();
  const std::string& temp_path() const { return temp_; }
  void commit();

 private:
  std::string path_, temp_;
  bool committed_ = false;
  bool direct_ = false;
};

// Whole-file helper for small outputs (JSON reports).
void write_file_atomically(const std::string& path, std::string_view content);

}  // namespace synmt
