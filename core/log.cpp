#include "core/log.h"

#include <unistd.h>

#include <cstdio>
#include <ctime>

namespace synmt {
namespace {
void emit(const char* level, const std::string& message) {
  std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
  std::fprintf(stderr, "[%s] %s%s\n", stamp, level, message.c_str());
}
}  // namespace

void log_info(const std::string& message) { emit("", message); }
void log_warn(const std::string& message) { emit("WARNING: ", message); }
void log_error(const std::string& message) { emit("ERROR: ", message); }

Progress::Progress(std::string what, std::size_t total, double interval_seconds)
    : what_(std::move(what)), total_(total), interval_(interval_seconds), tty_(::isatty(2) != 0),
      start_(std::chrono::steady_clock::now()), last_(start_) {
  if (tty_) interval_ = 0.2;
}

Progress::~Progress() { finish(); }

void Progress::advance(std::size_t n) {
  done_ += n;
  auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - last_).count() >= interval_) {
    last_ = now;
    report(false);
  }
}

void Progress::finish() {
  if (finished_) return;
  finished_ = true;
  report(true);
}

void Progress::report(bool final) {
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  double rate = secs > 0 ? done_ / secs : 0.0;
  char line[512];
  if (total_ > 0) {
    // ETA from the average rate so far
    const double eta = rate > 0 && done_ < total_ ? static_cast<double>(total_ - done_) / rate : 0.0;
    std::snprintf(line, sizeof line, "%s: %zu/%zu (%.1f%%) %.0f/s %.1fs ETA %.0fs%s%s", what_.c_str(), done_, total_,
                  100.0 * done_ / total_, rate, secs, eta, detail_.empty() ? "" : " | ", detail_.c_str());
  } else {
    std::snprintf(line, sizeof line, "%s: %zu %.0f/s %.1fs%s%s", what_.c_str(), done_, rate, secs,
                  detail_.empty() ? "" : " | ", detail_.c_str());
  }
  if (tty_)
    std::fprintf(stderr, "\r%s%s", line, final ? "\n" : "");
  else if (!final || done_ > 0)
    std::fprintf(stderr, "%s\n", line);
}

}  // namespace synmt
