#pragma once
// Logging to stderr and progress reporting. On a TTY the progress line is redrawn in place;
// otherwise (SLURM logs, Snakemake logs) one status line is printed at most every `interval` seconds.
#include <chrono>
#include <cstddef>
#include <string>

namespace synmt {

void log_info(const std::string& message);
void log_warn(const std::string& message);
void log_error(const std::string& message);

class Progress {
 public:
  Progress(std::string what, std::size_t total = 0, double interval_seconds = 30.0);
  ~Progress();
  void advance(std::size_t n = 1);
  void finish();
  // Extra text shown after the counters (e.g. "loss 4.21 lr 1.0e-03 1935 tok/s").
  void set_detail(std::string detail) { detail_ = std::move(detail); }

 private:
  void report(bool final);
  std::string what_, detail_;
  std::size_t total_, done_ = 0;
  double interval_;
  bool tty_, finished_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace synmt
