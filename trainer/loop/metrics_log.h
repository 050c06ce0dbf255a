#pragma once
// metrics.jsonl: one JSON object a line, flushed at once so that a crash keeps every line before
// it. A failed write (a full disk) is an error naming the file, not a silently shorter log.
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

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

}  // namespace synmt
