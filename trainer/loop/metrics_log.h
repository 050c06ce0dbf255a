#pragma once
// metrics.jsonl: one JSON object a line, flushed at once so that a crash keeps every line before
// it. A failed write (a full disk) is an error naming the file, not a silently shorter log.
#include <chrono>
#include <cstdint>
#include <fstream>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "trainer/loop/training_cursor.h"

namespace synmt {

class MetricsLog {
 public:
  MetricsLog() = default;  // writes nothing (ranks other than 0)
  MetricsLog(std::string path, bool append);
  void write(const nlohmann::json& line);

 private:
  std::string path_;
  std::ofstream out_;
};

// The training metrics of one log window (log_interval updates): loss, NLL and each auxiliary
// term summed over the window's target tokens, as metrics.jsonl lines and the progress detail.
class MetricsWindow {
 public:
  void add(double loss, double nll, const std::map<std::string, double>& aux_sums, int64_t tokens);
  // The window's metrics line (per target token, each auxiliary term as aux_NAME); `detail`
  // receives the progress line. Starts the next window.
  nlohmann::json close(const TrainingCursor& cur, double lr, double grad_norm, double elapsed, std::string& detail);

 private:
  double loss_ = 0, nll_ = 0;
  std::map<std::string, double> aux_;  // each auxiliary loss, summed over the window
  int64_t tokens_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace synmt
