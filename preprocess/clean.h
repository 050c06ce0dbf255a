#pragma once
// clean-corpus-n.perl semantics for a parallel corpus: a pair is dropped when either side is empty,
// has fewer than min or more than max tokens, or when the token ratio exceeds max_ratio. Optional
// exact-duplicate removal. Every drop is counted by reason for the JSON report.
#include <cstdint>
#include <map>
#include <string>
#include <unordered_set>

namespace synmt {

struct CleanOptions {
  int min_tokens = 1;
  int max_tokens = 80;
  double max_ratio = 9.0;
  bool dedupe = false;
};

class CorpusCleaner {
 public:
  explicit CorpusCleaner(CleanOptions options) : options_(options) {}
  // Returns true when the pair is kept; otherwise the reason is counted.
  bool keep(const std::string& source, const std::string& target);
  const std::map<std::string, int64_t>& dropped() const { return dropped_; }
  int64_t seen() const { return seen_; }
  int64_t kept() const { return kept_; }

 private:
  bool drop(const char* reason);
  CleanOptions options_;
  std::map<std::string, int64_t> dropped_;
  std::unordered_set<std::string> seen_pairs_;
  int64_t seen_ = 0, kept_ = 0;
};

int count_tokens(const std::string& line);  // whitespace-separated words

}  // namespace synmt
