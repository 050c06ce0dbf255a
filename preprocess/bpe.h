#pragma once
// Byte-pair encoding with subword-nmt 0.3.8 semantics: `learn` is a faithful port of learn_bpe.py
// (same tie-breaking by (frequency, pair), same incremental statistics and the same pruning of the
// statistics table, which decides the output when frequencies tie), `apply` of apply_bpe.py.
#include <cstdint>
#include <istream>
#include <memory>
#include <mutex>
#include <regex>
#include <unordered_set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/output_buffer.h"
#include "preprocess/flat_map.h"
#include "preprocess/word_cache.h"

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

// get-vocab: "word count" lines by descending count (ties in first-occurrence order).
std::vector<std::pair<std::string, int64_t>> vocabulary_by_frequency(const WordCounts& counts);

struct BpeApplyOptions {
  std::string separator = "@@";
  int merges = -1;  // use only the first N codes
  // Regular expressions (ECMAScript; for the usual literal words and simple classes the same as
  // Python's re) whose matches are isolated inside words and never split.
  std::vector<std::string> glossaries;
  std::string vocabulary;          // get-vocab file: segments not in it are split back (reversing merges)
  int vocabulary_threshold = -1;   // with vocabulary: ignore entries less frequent than this
  double dropout = 0.0;            // BPE-dropout: each merge skipped with this probability (no cache)
  uint64_t seed = 1;               // dropout RNG seed (std::mt19937_64, per thread)
};

class BpeCodes {
 public:
  // Reads a codes file; errors name the file and line (empty file, a line without two units).
  BpeCodes(const std::string& path, BpeApplyOptions options = {});
  // process_line semantics: leading/trailing whitespace kept, words split on single spaces.
  // Thread-safe: the word cache is per thread.
  std::string apply_line(const std::string& line) const;
  void apply_line_to(std::string_view line, OutputBuffer& out) const;  // appends (no newline)
  // Moves the words each thread has segmented into the cache that all threads read first, so that
  // a word type is segmented about once however many threads there are. Must not run while any
  // thread is inside apply_line (map_lines_into calls it between chunks).
  void share_cached_words();
  std::vector<std::string> segment_word(const std::string& word) const;

 private:
  std::vector<std::string> recursive_split(const std::string& segment, bool final) const;
  std::vector<std::string> check_vocab_and_split(const std::vector<std::string>& word) const;
  std::vector<std::string> isolate_glossaries(const std::string& word) const;
  // Merge table over interned units: pair_key(left, right) -> (rank << 32) | merged unit id.
  static uint64_t pair_key(int32_t left, int32_t right) { return (uint64_t(uint32_t(left)) << 32) | uint32_t(right); }
  int32_t unit_id(std::string_view unit);  // interns (constructor only)
  bool merge_word(std::string_view word, std::vector<int32_t>& ids, std::vector<std::string>& unknown) const;
  void merge_greedily(std::vector<int32_t>& ids) const;
  void merge_with_dropout(std::vector<int32_t>& ids) const;
  WordCache unit_ids_;  // unit -> its id (4 bytes), while the codes are read
  FlatCountMap pairs_;
  FlatCountMap char_ids_;  // single-code-point units (optionally with "</w>") by char_key
  int32_t ascii_ids_[128][2];  // the same for ASCII characters: [byte][followed by "</w>"], -1 = none
  int32_t end_of_word_ = 0;
  std::unordered_map<std::string, std::pair<std::string, std::string>> reverse_;  // merged -> pair (lowest rank)
  std::unordered_set<std::string> vocab_;
  std::vector<std::regex> glossary_res_;
  std::unique_ptr<std::regex> glossary_full_;  // ^(g1|g2|...)$
  int version_ = 2;  // codes format 0.1 or 0.2 (end-of-word handling)
  static constexpr std::size_t kCopySlack = 2 * WordCache::kReadSlack;  // see apply_line_to
  // Writes the word as it appears in the output ("a@@ b@@ c") at o, returns the end: at most
  // (separator + 2) bytes per byte of the word plus kCopySlack are written.
  char* write_segmented(std::string_view word, char* o) const;
  // The units, by id: each one's text followed by the separator and a space (its form inside a
  // segmented word), in one buffer padded by kCopySlack.
  std::string unit_forms_;
  std::vector<uint32_t> unit_form_at_;
  std::vector<uint32_t> unit_size_;
  std::string_view unit(std::size_t id) const { return std::string_view(unit_forms_).substr(unit_form_at_[id], unit_size_[id]); }
  BpeApplyOptions options_;
  uint64_t instance_;  // names this object's per-thread word caches
  WordCache& thread_cache() const;
  WordCache shared_cache_;  // read by all threads, written only by share_cached_words()
  mutable std::mutex thread_caches_mutex_;
  mutable std::vector<std::unique_ptr<WordCache>> thread_caches_;  // owned here, one per thread
};

// Undoes BPE segmentation: "@@ " joins removed (and a trailing "@@"), as `sed -r 's/(@@ )|(@@ ?$)//g'`.
std::string remove_bpe(const std::string& segmented);

}  // namespace synmt
