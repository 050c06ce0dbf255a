#pragma once
// Byte-pair encoding with subword-nmt 0.3.8 semantics: `learn` is a faithful port of learn_bpe.py
// (same tie-breaking by (frequency, pair), same incremental statistics and the same pruning of the
// statistics table, which decides the output when frequencies tie), `apply` of apply_bpe.py.
#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace synmt {

struct BpeLearnOptions {
  int num_symbols = 10000;
  int min_frequency = 2;
  bool total_symbols = false;  // subtract the number of distinct characters from num_symbols
};

// Word counts as subword-nmt's get_vocabulary builds them: first-occurrence order kept.
class WordCounts {
 public:
  void add_line(const std::string& line);  // line.strip('\r\n ').split(' '), empty words skipped
  void add(const std::string& word, int64_t count);
  const std::vector<std::pair<std::string, int64_t>>& items() const { return items_; }

 private:
  std::unordered_map<std::string, std::size_t> index_;
  std::vector<std::pair<std::string, int64_t>> items_;
};

// Returns the merge operations in order (without the "#version: 0.2" header).
std::vector<std::pair<std::string, std::string>> learn_bpe(const WordCounts& counts, const BpeLearnOptions& options);

struct BpeApplyOptions {
  std::string separator = "@@";
  int merges = -1;  // use only the first N codes
  std::vector<std::string> glossaries;  // words never split (exact match)
};

class BpeCodes {
 public:
  // Reads a codes file; errors name the file and line (empty file, a line without two units).
  BpeCodes(const std::string& path, BpeApplyOptions options = {});
  // process_line semantics: leading/trailing whitespace kept, words split on single spaces.
  // Thread-safe: the word cache is per thread.
  std::string apply_line(const std::string& line) const;
  std::vector<std::string> segment_word(const std::string& word) const;

 private:
  std::unordered_map<std::string, int> ranks_;  // "first second" -> rank (first occurrence wins)
  int version_ = 2;  // codes format 0.1 or 0.2 (end-of-word handling)
  // the word as it appears in the output ("a@@ b@@ c"), cached per thread and per codes object
  const std::string& segmented(std::string_view word) const;
  BpeApplyOptions options_;
};

}  // namespace synmt
