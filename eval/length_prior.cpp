#include "eval/length_prior.h"

#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/strings.h"

namespace synmt::eval {

namespace {
int64_t count_tokens(const std::string& line) {
  std::istringstream in(line);
  return static_cast<int64_t>(std::distance(std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()));
}
}  // namespace

LengthPrior LengthPrior::from_counts(const std::map<int64_t, std::map<int64_t, int64_t>>& counts) {
  LengthPrior p;
  p.counts_ = counts;
  for (const auto& [lx, row] : counts)
    for (const auto& [ly, c] : row) {
      p.totals_[lx] += c;
      p.max_tgt_ = std::max(p.max_tgt_, ly);
    }
  if (p.totals_.empty()) throw ConfigError("length prior: no training pairs");
  return p;
}

LengthPrior LengthPrior::estimate(const std::string& src_path, const std::string& tgt_path) {
  std::ifstream src(src_path), tgt(tgt_path);
  if (!src) throw InputError(src_path, 0, "cannot open");
  if (!tgt) throw InputError(tgt_path, 0, "cannot open");
  std::map<int64_t, std::map<int64_t, int64_t>> counts;
  std::string s, t;
  int64_t line = 0;
  while (true) {
    const bool has_s = static_cast<bool>(std::getline(src, s));
    const bool has_t = static_cast<bool>(std::getline(tgt, t));
    if (!has_s && !has_t) break;
    ++line;
    if (has_s != has_t)
      throw InputError(has_s ? tgt_path : src_path, line, "ends before " + (has_s ? src_path : tgt_path) + ": the sides differ in length");
    ++counts[count_tokens(s)][count_tokens(t)];
  }
  if (counts.empty()) throw InputError(src_path, 0, "no training pairs to estimate the length prior from");
  return from_counts(counts);
}

double LengthPrior::log_prob(int64_t src_len, int64_t tgt_len) const {
  auto it = totals_.lower_bound(src_len);  // the nearest observed source length (shorter on a tie)
  if (it == totals_.end()) it = std::prev(totals_.end());
  else if (it->first != src_len && it != totals_.begin() && src_len - std::prev(it)->first <= it->first - src_len) it = std::prev(it);
  const int64_t lx = it->first;
  const auto& row = counts_.at(lx);
  auto c = row.find(tgt_len);
  const double count = c == row.end() || tgt_len < 1 ? 0.0 : static_cast<double>(c->second);
  return std::log((count + 1.0) / (static_cast<double>(it->second) + static_cast<double>(max_tgt_)));
}

void LengthPrior::save(const std::string& path) const {
  nlohmann::json j = {{"format", kLengthPriorFormat}, {"max_target_length", max_tgt_}, {"counts", nlohmann::json::object()}};
  for (const auto& [lx, row] : counts_)
    for (const auto& [ly, c] : row) j["counts"][std::to_string(lx)][std::to_string(ly)] = c;
  write_file_atomically(path, j.dump() + "\n");
}

LengthPrior LengthPrior::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "cannot open");
  nlohmann::json j;
  try {
    in >> j;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, 0, std::string("not JSON: ") + e.what());
  }
  if (!j.is_object() || !j.contains("format") || j["format"] != kLengthPriorFormat)
    throw InputError(path, 0, std::string("not a length prior of format ") + kLengthPriorFormat);
  if (!j.contains("counts") || !j["counts"].is_object()) throw InputError(path, 0, "malformed counts: no \"counts\" object");
  // Lengths are token counts (non-negative, within int); counts are pair counts (at least 1; a
  // row's total at most 2^40 pairs, so that no sum overflows): what estimate() writes. Anything else is a
  // damaged or hand-edited file, refused rather than read leniently (std::stoll took "12abc" as 12).
  constexpr int64_t kMaxCount = int64_t{1} << 40;
  std::map<int64_t, std::map<int64_t, int64_t>> counts;
  std::map<int64_t, int64_t> totals;
  for (const auto& [lx, row] : j["counts"].items()) {
    const int src_len = parse_index(lx);
    if (src_len < 0 || !row.is_object()) throw InputError(path, 0, "malformed counts: source length '" + lx + "'");
    for (const auto& [ly, c] : row.items()) {
      const int tgt_len = parse_index(ly);
      if (tgt_len < 0 || !c.is_number_integer() || c.get<int64_t>() < 1 || c.get<int64_t>() > kMaxCount)
        throw InputError(path, 0, "malformed counts: source length " + lx + ", target length '" + ly + "': " + c.dump());
      if (counts[src_len].count(tgt_len) != 0)
        throw InputError(path, 0, "malformed counts: source length " + lx + ", target length " + ly + " given twice");
      counts[src_len][tgt_len] = c.get<int64_t>();
      if ((totals[src_len] += c.get<int64_t>()) > kMaxCount)  // both terms <= 2^40: the sum cannot overflow
        throw InputError(path, 0, "malformed counts: source length " + lx + " counts more than 2^40 pairs");
    }
    if (counts[src_len].empty()) throw InputError(path, 0, "malformed counts: source length " + lx + " has no target lengths");
  }
  if (counts.empty()) throw InputError(path, 0, "no training pairs in the length prior");
  return from_counts(counts);
}

}  // namespace synmt::eval
