#include "core/line_reader.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"
#include "core/utf8.h"

namespace synmt {

LineReader::LineReader(const std::string& path, LineReaderOptions options)
    : path_(path == "-" ? "<stdin>" : path), options_(options) {
  // gzopen reads uncompressed files transparently, so one code path serves .gz and plain text.
  gz_ = path == "-" ? gzdopen(0, "rb") : gzopen(path.c_str(), "rb");
  if (gz_ == nullptr) throw InputError(path_, 0, std::string("cannot open: ") + std::strerror(errno));
  gzbuffer(static_cast<gzFile>(gz_), 1 << 17);
}

LineReader::~LineReader() {
  if (gz_ != nullptr) gzclose(static_cast<gzFile>(gz_));
}

void LineReader::fail(const std::string& message) const { throw InputError(path_, line_no_, message); }

bool LineReader::fill() {
  if (eof_) return false;
  if (pos_ > 0) {
    buffer_.erase(0, pos_);
    pos_ = 0;
  }
  char chunk[1 << 16];
  int n = gzread(static_cast<gzFile>(gz_), chunk, sizeof chunk);
  if (n < 0) {
    int code = 0;
    const char* msg = gzerror(static_cast<gzFile>(gz_), &code);
    throw InputError(path_, line_no_ + 1, std::string("read error (corrupt gzip?): ") + msg);
  }
  if (n == 0) {
    eof_ = true;
    return false;
  }
  buffer_.append(chunk, static_cast<std::size_t>(n));
  return true;
}

bool LineReader::next(std::string& line) {
  for (;;) {
    std::size_t nl = buffer_.find('\n', pos_);
    if (nl != std::string::npos) {
      line.assign(buffer_, pos_, nl - pos_);
      pos_ = nl + 1;
      break;
    }
    if (buffer_.size() - pos_ > options_.max_line_bytes) {
      ++line_no_;
      fail("line longer than " + std::to_string(options_.max_line_bytes) + " bytes");
    }
    if (!fill()) {
      if (pos_ >= buffer_.size()) return false;
      line.assign(buffer_, pos_, std::string::npos);  // last line without a newline
      pos_ = buffer_.size();
      break;
    }
  }
  // the same checks and clean-up as next_lines(); an invalid line is returned flagged, not dropped
  std::size_t begin = 0, end = line.size();
  last_invalid_ = !accept_line(line, begin, end);
  line.resize(end);
  if (begin > 0) line.erase(0, begin);
  return true;
}

bool LineReader::accept_line(std::string_view text, std::size_t& begin, std::size_t& end) {
  ++line_no_;
  if (end - begin > options_.max_line_bytes)
    fail("line longer than " + std::to_string(options_.max_line_bytes) + " bytes");
  if (options_.strip_cr && end > begin && text[end - 1] == '\r') --end;
  if (line_no_ == 1 && text.substr(begin, end - begin).compare(0, 3, "\xEF\xBB\xBF") == 0) begin += 3;
  last_invalid_ = false;
  if (options_.check_utf8) {
    const std::size_t bad = utf8::find_invalid(text.substr(begin, end - begin));
    if (bad != std::string::npos) {
      if (!options_.flag_invalid) fail(invalid_utf8_message(bad));
      ++invalid_count_;
      return false;
    }
  }
  return true;
}

bool LineReader::next_lines(std::string& text, std::vector<std::string_view>& lines, std::size_t max_lines) {
  text.assign(buffer_, pos_, std::string::npos);  // what next() or the last call read ahead
  buffer_.clear();
  pos_ = 0;
  lines.clear();
  thread_local std::vector<std::pair<std::size_t, std::size_t>> spans;  // views once text stops growing
  spans.clear();
  std::size_t scan = 0;
  for (;;) {
    while (spans.size() < max_lines) {
      const void* nl = std::memchr(text.data() + scan, '\n', text.size() - scan);
      if (nl == nullptr) break;
      std::size_t begin = scan, end = static_cast<std::size_t>(static_cast<const char*>(nl) - text.data());
      scan = end + 1;
      if (accept_line(text, begin, end)) spans.emplace_back(begin, end);
    }
    if (spans.size() >= max_lines) break;
    if (text.size() - scan > options_.max_line_bytes) {
      ++line_no_;
      fail("line longer than " + std::to_string(options_.max_line_bytes) + " bytes");
    }
    if (eof_) {
      if (scan < text.size()) {  // the last line has no newline
        std::size_t begin = scan, end = text.size();
        scan = end;
        if (accept_line(text, begin, end)) spans.emplace_back(begin, end);
      }
      break;
    }
    char chunk[1 << 16];
    const int n = gzread(static_cast<gzFile>(gz_), chunk, sizeof chunk);
    if (n < 0) {
      int code = 0;
      const char* msg = gzerror(static_cast<gzFile>(gz_), &code);
      throw InputError(path_, line_no_ + 1, std::string("read error (corrupt gzip?): ") + msg);
    }
    if (n == 0) eof_ = true;
    text.append(chunk, static_cast<std::size_t>(n));
  }
  buffer_.assign(text, scan, std::string::npos);  // read ahead: kept for the next call
  text.resize(scan);
  lines.reserve(spans.size());
  for (const auto& [b, e] : spans) lines.emplace_back(text.data() + b, e - b);
  return !lines.empty() || !buffer_.empty() || !eof_;
}

std::vector<std::string> read_lines(const std::string& path, LineReaderOptions options) {
  LineReader reader(path, options);
  std::vector<std::string> lines;
  std::string line;
  while (reader.next(line)) lines.push_back(line);
  return lines;
}

bool next_pair(LineReader& a, LineReader& b, std::string& line_a, std::string& line_b) {
  const bool has_a = a.next(line_a), has_b = b.next(line_b);
  if (has_a != has_b) {
    const LineReader& shorter = has_a ? b : a;
    throw InputError(shorter.path(), shorter.line_number(),
                     "parallel files differ in length: this file ends here, the other goes on");
  }
  return has_a;
}

}  // namespace synmt
