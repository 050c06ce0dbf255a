#pragma once
// Small string helpers shared by the stages.
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace synmt {

// A non-negative decimal integer that fits an int (CoNLL-U ids and heads); -1 for anything else:
// empty, a sign, another character, or too large (where std::stoi would throw a bare
// std::out_of_range), so that readers report the field with its file and line.
inline int parse_index(std::string_view s) {
  if (s.empty()) return -1;
  long long v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
    if (v > 2147483647LL) return -1;
  }
  return static_cast<int>(v);
}

// A non-negative decimal count that fits an int64 (vocabulary and BPE vocabulary counts); -1 for
// anything else, as parse_index: "12abc" is not 12 (std::stoll would stop at the first non-digit).
inline long long parse_count(std::string_view s) {
  if (s.empty() || s.size() > 18) return -1;  // 18 digits always fit; longer counts do not occur
  long long v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

// Every field between separators, empty ones included ("a\t\tb" -> "a", "", "b"): CoNLL-U columns,
// TSV files.
inline std::vector<std::string> split_fields(std::string_view line, char separator) {
  std::vector<std::string> fields;
  std::size_t b = 0;
  for (;;) {
    const std::size_t e = line.find(separator, b);
    fields.emplace_back(line.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
    if (e == std::string_view::npos) break;
    b = e + 1;
  }
  return fields;
}

// The non-empty fields between separators ("a  b" -> "a", "b"): sub-word pieces of a line,
// comma-separated option lists.
inline std::vector<std::string> split_nonempty(std::string_view line, char separator) {
  std::vector<std::string> fields;
  for (std::size_t b = 0; b < line.size();) {
    std::size_t e = line.find(separator, b);
    if (e == std::string_view::npos) e = line.size();
    if (e > b) fields.emplace_back(line.substr(b, e - b));
    b = e + 1;
  }
  return fields;
}

// Name lists stored in one HDF5 string attribute (label and UPOS inventories of datasets and
// parse caches): every name followed by '\n'; split_lines reads back exactly the names joined.
inline std::string join_lines(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& x : names) s += x + "\n";
  return s;
}

inline std::vector<std::string> split_lines(std::string_view s) {
  std::vector<std::string> names;
  for (std::size_t b = 0, e; (e = s.find('\n', b)) != std::string_view::npos; b = e + 1) names.emplace_back(s.substr(b, e - b));
  return names;
}

// Python's str.strip("\r\n ") as subword-nmt's learn_bpe.py and apply_bpe.py strip their lines
// (not all white space, as str.strip() would): the [begin, end) of what is left.
inline std::pair<std::size_t, std::size_t> strip_crlf_space(std::string_view s) {
  std::size_t b = 0, e = s.size();
  auto ws = [](char c) { return c == '\r' || c == '\n' || c == ' '; };
  while (b < e && ws(s[b])) ++b;
  while (e > b && ws(s[e - 1])) --e;
  return {b, e};
}

}  // namespace synmt
