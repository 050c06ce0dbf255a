#pragma once
// The file layout shared by head-score and gate-norm files: per sentence a block of float values
// and the sentence's word spans (first, last piece), both as ragged arrays:
//   <values> float, <values_offsets-name> int64 (sentences + 1)
//   spans int32 pairs, span_offsets int64 (sentences + 1, counting pairs)
// written atomically with a format attribute; the reader checks the format and both layouts.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace synmt::eval {

struct SpanArrays {
  std::vector<float> values;
  std::vector<int64_t> value_offsets{0};
  std::vector<int32_t> spans;  // first, last, first, last, ...
  std::vector<int64_t> span_offsets{0};
  std::size_t size() const { return value_offsets.size() - 1; }
  // Appends a sentence: its values, then its spans.
  template <class Values>
  void add(const Values& block, const std::vector<std::pair<int, int>>& word_spans) {
    for (double v : block) values.push_back(static_cast<float>(v));
    value_offsets.push_back(static_cast<int64_t>(values.size()));
    for (const auto& [a, b] : word_spans) spans.push_back(a), spans.push_back(b);
    span_offsets.push_back(static_cast<int64_t>(spans.size() / 2));
  }
};

// names: {values dataset, its offsets dataset}; format: the file's format attribute.
void write_span_arrays(const std::string& path, const std::pair<std::string, std::string>& names, const std::string& format,
                       const SpanArrays& arrays);
// InputError naming `path` (and `kind`, e.g. "head-score file") on a wrong format or layout.
SpanArrays read_span_arrays(const std::string& path, const std::pair<std::string, std::string>& names, const std::string& format,
                            const std::string& kind);

}  // namespace synmt::eval
