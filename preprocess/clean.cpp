#include "preprocess/clean.h"

#include "core/sha256.h"

namespace synmt {

int count_tokens(const std::string& line) {
  int n = 0;
  bool in_word = false;
  for (char c : line) {
    bool space = c == ' ' || c == '\t';
    if (!space && !in_word) ++n;
    in_word = !space;
  }
  return n;
}

bool CorpusCleaner::drop(const char* reason) {
  ++dropped_[reason];
  return false;
}

bool CorpusCleaner::keep(const std::string& source, const std::string& target) {
  ++seen_;
  const int ns = count_tokens(source), nt = count_tokens(target);
  if (ns == 0 || nt == 0) return drop("empty");
  if (ns < options_.min_tokens || nt < options_.min_tokens) return drop("too_short");
  if (ns > options_.max_tokens || nt > options_.max_tokens) return drop("too_long");
  if (static_cast<double>(ns) / nt > options_.max_ratio || static_cast<double>(nt) / ns > options_.max_ratio)
    return drop("length_ratio");
  if (options_.dedupe) {
    // A digest keeps memory per pair at 64 bytes however long the sentences are.
    if (!seen_pairs_.insert(sha256_hex(source + '\t' + target)).second) return drop("duplicate");
  }
  ++kept_;
  return true;
}

}  // namespace synmt
