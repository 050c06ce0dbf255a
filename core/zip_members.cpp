#include "core/zip_members.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

#include <zlib.h>

#include "core/error.h"

namespace synmt {
namespace {

// Record layouts: PKWARE's APPNOTE.TXT, sections 4.3.7 (local header), 4.3.12 (central directory
// header), 4.3.14-4.3.16 (zip64 end record, its locator, the end record), 4.5.3 (zip64 extra).
constexpr std::size_t kLocalSize = 30, kCentralSize = 46, kEocdSize = 22, kLocatorSize = 20, kZip64EocdSize = 56;
constexpr std::size_t kMaxComment = 0xffff;
constexpr uint32_t kLocalSig = 0x04034b50, kCentralSig = 0x02014b50, kEocdSig = 0x06054b50;
constexpr uint32_t kLocatorSig = 0x07064b50, kZip64EocdSig = 0x06064b50;
constexpr uint16_t kZip64ExtraId = 0x0001;

uint64_t le(const unsigned char* p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

class File {
 public:
  explicit File(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "rb"), &std::fclose) {
    if (!f_) throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
    if (std::fseek(f_.get(), 0, SEEK_END) != 0) throw InputError(path, 0, "cannot seek");
    const long size = std::ftell(f_.get());
    if (size < 0) throw InputError(path, 0, "cannot tell its size");
    size_ = static_cast<uint64_t>(size);
  }
  uint64_t size() const { return size_; }
  // `n` bytes at `offset`; a range past the end is the damage `what` names
  std::vector<unsigned char> read(uint64_t offset, uint64_t n, const std::string& what) const {
    if (offset > size_ || n > size_ - offset) fail(what + " lies past the end of the file");
    std::vector<unsigned char> bytes(static_cast<std::size_t>(n));
    if (std::fseek(f_.get(), static_cast<long>(offset), SEEK_SET) != 0 ||
        std::fread(bytes.data(), 1, bytes.size(), f_.get()) != bytes.size())
      throw InputError(path_, 0, "cannot read");
    return bytes;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(path_, 0, "damaged zip archive (not a readable LibTorch file): " + what);
  }

 private:
  std::string path_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f_;
  uint64_t size_ = 0;
};

struct Directory {
  uint64_t entries = 0, size = 0, offset = 0;
  uint64_t end = 0;  // where the records after the directory start: nothing of it may reach past
};

// The end record, found as readers find it: the last signature within the comment's reach.
Directory read_directory(const File& file) {
  if (file.size() < kEocdSize) file.fail("no end record");
  const uint64_t tail_size = std::min<uint64_t>(file.size(), kEocdSize + kMaxComment);
  const auto tail = file.read(file.size() - tail_size, tail_size, "the end record");
  std::size_t at = tail.size() - kEocdSize + 1;
  do {
    if (at-- == 0) file.fail("no end record");
  } while (le(&tail[at], 4) != kEocdSig);
  const unsigned char* eocd = &tail[at];
  const uint64_t eocd_pos = file.size() - tail_size + at;
  if (eocd_pos + kEocdSize + le(eocd + 20, 2) != file.size()) file.fail("the end record's comment length does not match the file");
  Directory dir{le(eocd + 10, 2), le(eocd + 12, 4), le(eocd + 16, 4), eocd_pos};
  if (eocd_pos >= kLocatorSize) {
    const auto locator = file.read(eocd_pos - kLocatorSize, kLocatorSize, "the zip64 locator");
    if (le(locator.data(), 4) == kLocatorSig) {
      const uint64_t record_pos = le(&locator[8], 8);
      if (record_pos > eocd_pos - kLocatorSize || eocd_pos - kLocatorSize - record_pos < kZip64EocdSize)
        file.fail("the zip64 end record lies outside the file");
      const auto record = file.read(record_pos, kZip64EocdSize, "the zip64 end record");
      if (le(record.data(), 4) != kZip64EocdSig) file.fail("no zip64 end record where its locator points");
      dir = Directory{le(&record[32], 8), le(&record[40], 8), le(&record[48], 8), record_pos};
    }
  }
  if (dir.offset > dir.end || dir.size > dir.end - dir.offset) file.fail("the central directory lies outside the file");
  return dir;
}

// Sizes and offset saturated at 0xffffffff live in the entry's zip64 extra field, in this order.
void apply_zip64_extra(const File& file, const unsigned char* extra, std::size_t length, ZipMember& m,
                       uint64_t& local_offset) {
  const bool want[3] = {m.uncompressed == 0xffffffff, m.compressed == 0xffffffff, local_offset == 0xffffffff};
  if (!want[0] && !want[1] && !want[2]) return;
  for (std::size_t at = 0; at + 4 <= length;) {
    const uint64_t id = le(extra + at, 2), size = le(extra + at + 2, 2);
    if (at + 4 + size > length) break;
    if (id == kZip64ExtraId) {
      const unsigned char* v = extra + at + 4;
      std::size_t used = 0;
      uint64_t* fields[3] = {&m.uncompressed, &m.compressed, &local_offset};
      for (int k = 0; k < 3; ++k) {
        if (!want[k]) continue;
        if (used + 8 > size) file.fail("member '" + m.name + "': its zip64 extra field is too short");
        *fields[k] = le(v + used, 8);
        used += 8;
      }
      return;
    }
    at += 4 + size;
  }
  file.fail("member '" + m.name + "': a saturated size or offset without its zip64 extra field");
}

}  // namespace

std::vector<ZipMember> check_zip_members(const std::string& path) {
  const File file(path);
  const Directory dir = read_directory(file);
  const auto cd = file.read(dir.offset, dir.size, "the central directory");
  // every entry takes at least kCentralSize bytes: a count beyond that is damage, not a reservation
  if (dir.entries > cd.size() / kCentralSize) file.fail("the central directory is too small for its entry count");
  std::vector<ZipMember> members;
  members.reserve(static_cast<std::size_t>(dir.entries));
  std::size_t at = 0;
  for (uint64_t i = 0; i < dir.entries; ++i) {
    if (cd.size() - at < kCentralSize || le(&cd[at], 4) != kCentralSig)
      file.fail("central directory entry " + std::to_string(i) + " is missing or has no signature");
    const unsigned char* h = &cd[at];
    const std::size_t name_len = le(h + 28, 2), extra_len = le(h + 30, 2), comment_len = le(h + 32, 2);
    if (cd.size() - at - kCentralSize < name_len + extra_len + comment_len)
      file.fail("central directory entry " + std::to_string(i) + " runs past the directory");
    ZipMember m;
    m.name.assign(reinterpret_cast<const char*>(h + kCentralSize), name_len);
    m.method = static_cast<int>(le(h + 10, 2));
    m.compressed = le(h + 20, 4);
    m.uncompressed = le(h + 24, 4);
    uint64_t local = le(h + 42, 4);
    apply_zip64_extra(file, h + kCentralSize + name_len, extra_len, m, local);
    at += kCentralSize + name_len + extra_len + comment_len;

    const std::string who = "member '" + m.name + "'";
    if (m.method == 0 && m.uncompressed != m.compressed)
      file.fail(who + " is stored, yet claims " + std::to_string(m.uncompressed) + " bytes in " +
                std::to_string(m.compressed));
    if (m.method == 8 && m.uncompressed / kMaxDeflateRatio + (m.uncompressed % kMaxDeflateRatio != 0) > m.compressed)
      file.fail(who + " claims " + std::to_string(m.uncompressed) + " bytes inflated from " + std::to_string(m.compressed) +
                ", more than deflate can expand");
    if (m.method != 0 && m.method != 8) file.fail(who + " uses compression method " + std::to_string(m.method));
    const auto lh = file.read(local, kLocalSize, who + "'s local header");
    if (le(lh.data(), 4) != kLocalSig) file.fail(who + " has no local header where the directory points");
    m.data_offset = local + kLocalSize + le(&lh[26], 2) + le(&lh[28], 2);
    if (m.data_offset > dir.offset || m.compressed > dir.offset - m.data_offset)
      file.fail(who + "'s bytes run into the central directory or past the file");
    members.push_back(std::move(m));
  }
  return members;
}

namespace {
std::string read_member(const File& file, const ZipMember& member) {
  const auto bytes = file.read(member.data_offset, member.compressed, "member '" + member.name + "'");
  if (member.method == 0) return std::string(bytes.begin(), bytes.end());
  // zlib's raw inflate (no zlib header: windowBits -15), as zip stores deflate streams
  std::string out(static_cast<std::size_t>(member.uncompressed), '\0');
  z_stream z{};
  if (inflateInit2(&z, -15) != Z_OK) throw std::runtime_error("zlib: inflateInit2 failed");
  z.next_in = const_cast<Bytef*>(bytes.data());
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int status = inflate(&z, Z_FINISH);
  const uint64_t produced = z.total_out;
  inflateEnd(&z);
  if (status != Z_STREAM_END || produced != member.uncompressed)
    file.fail("member '" + member.name + "' does not inflate to the " + std::to_string(member.uncompressed) + " bytes it claims");
  return out;
}

}  // namespace

std::vector<std::string> read_zip_members(const std::string& path, const std::vector<ZipMember>& members) {
  const File file(path);
  std::vector<std::string> out;
  out.reserve(members.size());
  for (const ZipMember& member : members) out.push_back(read_member(file, member));
  return out;
}

}  // namespace synmt
