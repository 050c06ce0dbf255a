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
  ++line_no_;
  if (line.size() > options_.max_line_bytes)
    fail("line longer than " + std::to_string(options_.max_line_bytes) + " bytes");
  if (options_.strip_cr && !line.empty() && line.back() == '\r') line.pop_back();
  if (line_no_ == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);
  last_invalid_ = false;
  if (options_.check_utf8) {
    std::size_t bad = utf8::find_invalid(line);
    if (bad != std::string::npos) {
      if (!options_.flag_invalid) fail(invalid_utf8_message(bad));
      last_invalid_ = true;
      ++invalid_count_;
    }
  }
  return true;
}

std::vector<std::string> read_lines(const std::string& path, LineReaderOptions options) {
  LineReader reader(path, options);
  std::vector<std::string> lines;
  std::string line;
  while (reader.next(line)) lines.push_back(line);
  return lines;
}

}  // namespace synmt
