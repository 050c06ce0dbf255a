#include "trainer/loop/metrics_log.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace synmt {

MetricsLog::MetricsLog(std::string path, bool append) : path_(std::move(path)) {
  out_.open(path_, append ? std::ios::app : std::ios::trunc);
  if (!out_) throw std::runtime_error("cannot open " + path_ + " for writing: " + std::strerror(errno));
}

void MetricsLog::write(const nlohmann::json& line) {
  if (path_.empty()) return;
  out_ << line.dump() << "\n" << std::flush;
  if (!out_) throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(errno));
}

}  // namespace synmt
