#pragma once
// Line-by-line reading of plain or gzip-compressed text ("-" = stdin) with the checks every stage
// needs: valid UTF-8 (error names file and line), a UTF-8 BOM dropped on line 1, CRLF accepted.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace synmt {

struct LineReaderOptions {
  bool check_utf8 = true;
  // Invalid UTF-8 lines are not an error but flagged (last_line_invalid()) and counted; the caller
  // decides (drop a whole parallel pair, drop a monolingual line) and reports the count.
  bool flag_invalid = false;
  bool strip_cr = true;              // "abc\r\n" reads as "abc"
  std::size_t max_line_bytes = 1 << 20;  // longer lines are an error, never silently cut
};

class LineReader {
 public:
  explicit LineReader(const std::string& path, LineReaderOptions options = {});
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // Reads the next line without its terminator; false at end of file.
  bool next(std::string& line);
  // Reads up to max_lines lines at once into one buffer: `text` holds them, `lines` views into it
  // (terminators removed; the same checks and clean-up as next(); with flag_invalid, invalid
  // lines are counted and left out). For parallel consumers: one copy of the bytes, no string per
  // line. false at end of file. Can be mixed with next().
  bool next_lines(std::string& text, std::vector<std::string_view>& lines, std::size_t max_lines);
  std::size_t line_number() const { return line_no_; }
  bool last_line_invalid() const { return last_invalid_; }
  std::size_t invalid_lines() const { return invalid_count_; }
  const std::string& path() const { return path_; }
  const LineReaderOptions& options() const { return options_; }
  // Parallel consumers validate UTF-8 on their worker threads (map_lines_into) and report errors
  // with invalid_utf8_error(); the reader then only splits lines.
  void set_check_utf8(bool check) { options_.check_utf8 = check; }
  static std::string invalid_utf8_message(std::size_t byte_offset) {
    return "invalid UTF-8 at byte " + std::to_string(byte_offset + 1) + " of the line";
  }
  // Throws InputError naming the current line.
  [[noreturn]] void fail(const std::string& message) const;

 private:
  bool fill();
  // next_lines' per-line bookkeeping: false when the line is dropped (flag_invalid)
  bool accept_line(std::string_view text, std::size_t& begin, std::size_t& end);
  std::string path_;
  LineReaderOptions options_;
  void* gz_ = nullptr;  // gzFile, kept opaque so that zlib.h stays out of the header
  std::string buffer_;
  std::size_t pos_ = 0;
  bool eof_ = false;
  std::size_t line_no_ = 0;
  bool last_invalid_ = false;
  std::size_t invalid_count_ = 0;
};

// Reads a whole file into lines (small files: references, vocabularies).
std::vector<std::string> read_lines(const std::string& path, LineReaderOptions options = {});

// The next line of each side of a parallel corpus; false when both end together. A side that ends
// first is an InputError naming that file and its last line.
bool next_pair(LineReader& a, LineReader& b, std::string& line_a, std::string& line_b);

}  // namespace synmt
