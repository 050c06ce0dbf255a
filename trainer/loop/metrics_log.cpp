#include "trainer/loop/metrics_log.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
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

void MetricsWindow::add(double loss, double nll, const std::map<std::string, double>& aux_sums, int64_t tokens) {
  loss_ += loss;
  nll_ += nll;
  for (const auto& [name, value] : aux_sums) aux_[name] += value;
  tokens_ += tokens;
}

nlohmann::json MetricsWindow::close(const TrainingCursor& cur, double lr, double grad_norm, double elapsed, std::string& detail) {
  const auto now = std::chrono::steady_clock::now();
  const double secs = std::chrono::duration<double>(now - start_).count();
  char buf[160];
  std::snprintf(buf, sizeof buf, "loss %.3f lr %.2e %.0f tgt tok/s", loss_ / tokens_, lr, tokens_ / secs);
  detail = buf;
  nlohmann::json m = {{"type", "train"}, {"step", cur.steps}, {"epoch", cur.epoch},
                      {"loss", loss_ / tokens_}, {"nll", nll_ / tokens_}, {"ppl", std::exp(nll_ / tokens_)},
                      {"lr", lr}, {"grad_norm", grad_norm}, {"tgt_tokens_per_s", tokens_ / secs}, {"elapsed_s", elapsed}};
  for (auto& [name, sum] : aux_) {  // per target token, like the loss
    std::snprintf(buf, sizeof buf, " %s %.3f", name.c_str(), sum / tokens_);
    detail += buf;
    m["aux_" + name] = sum / tokens_;
    sum = 0;
  }
  loss_ = nll_ = 0;
  tokens_ = 0;
  start_ = now;
  return m;
}

}  // namespace synmt
