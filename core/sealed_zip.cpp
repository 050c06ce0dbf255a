#include "core/sealed_zip.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "core/error.h"
#include "core/sha256.h"

namespace synmt {
namespace {

// The end-of-central-directory record (APPNOTE.TXT 4.3.16): 22 bytes, signature first, the
// comment's length in its last two bytes, the comment after it.
constexpr std::size_t kEocdSize = 22;
constexpr unsigned char kEocdSignature[4] = {'P', 'K', 5, 6};
constexpr char kSealPrefix[] = "synmt-sha256:";
constexpr std::size_t kSealSize = sizeof(kSealPrefix) - 1 + 64;

using FilePtr = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

FilePtr open_or_throw(const std::string& path, const char* mode) {
  FilePtr f(std::fopen(path.c_str(), mode), &std::fclose);
  if (!f) throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  return f;
}

int64_t file_size(std::FILE* f, const std::string& path) {
  if (std::fseek(f, 0, SEEK_END) != 0) throw InputError(path, 0, "cannot seek");
  const long size = std::ftell(f);
  if (size < 0) throw InputError(path, 0, "cannot tell its size");
  return size;
}

std::vector<unsigned char> read_at(std::FILE* f, int64_t offset, std::size_t n, const std::string& path) {
  std::vector<unsigned char> bytes(n);
  if (std::fseek(f, static_cast<long>(offset), SEEK_SET) != 0 || std::fread(bytes.data(), 1, n, f) != n)
    throw InputError(path, 0, "cannot read");
  return bytes;
}

bool is_eocd(const std::vector<unsigned char>& record, std::size_t comment_length) {
  return std::memcmp(record.data(), kEocdSignature, 4) == 0 &&
         (record[20] | (record[21] << 8)) == static_cast<int>(comment_length);
}

// SHA-256 of the first `n` bytes, with the end record's comment length read as 0 (as sealed).
std::string digest_unsealed(std::FILE* f, int64_t n, const std::string& path) {
  Sha256 sha;
  std::vector<char> buffer(1 << 20);
  if (std::fseek(f, 0, SEEK_SET) != 0) throw InputError(path, 0, "cannot seek");
  int64_t done = 0;
  while (done < n) {
    const std::size_t want = static_cast<std::size_t>(std::min<int64_t>(n - done, static_cast<int64_t>(buffer.size())));
    if (std::fread(buffer.data(), 1, want, f) != want) throw InputError(path, 0, "cannot read");
    // the comment-length field is the last two bytes before the comment
    for (int64_t k = std::max(done, n - 2); k < done + static_cast<int64_t>(want); ++k) buffer[static_cast<std::size_t>(k - done)] = 0;
    sha.update(std::string_view(buffer.data(), want));
    done += static_cast<int64_t>(want);
  }
  return sha.hex_digest();
}

}  // namespace

void seal_zip(std::string& bytes) {
  const std::size_t size = bytes.size();
  if (size < kEocdSize || std::memcmp(bytes.data() + size - kEocdSize, kEocdSignature, 4) != 0 || bytes[size - 2] != 0 ||
      bytes[size - 1] != 0)
    throw std::invalid_argument("cannot seal: not a zip archive without a comment");
  Sha256 sha;  // over the bytes as they are, the comment length 0
  sha.update(std::string_view(bytes.data(), size));
  const std::string seal = kSealPrefix + sha.hex_digest();
  bytes[size - 2] = static_cast<char>(kSealSize & 0xff);
  bytes[size - 1] = static_cast<char>(kSealSize >> 8);
  bytes += seal;
}

bool unseal_zip(std::string& bytes) {
  const std::size_t size = bytes.size();
  if (size < kEocdSize + kSealSize || bytes.compare(size - kSealSize, sizeof(kSealPrefix) - 1, kSealPrefix) != 0 ||
      !is_eocd(std::vector<unsigned char>(bytes.end() - static_cast<std::ptrdiff_t>(kSealSize + kEocdSize),
                                          bytes.end() - static_cast<std::ptrdiff_t>(kSealSize)),
               kSealSize))
    return false;
  bytes.resize(size - kSealSize);
  bytes[bytes.size() - 2] = bytes[bytes.size() - 1] = 0;
  return true;
}

ZipSeal verify_sealed_zip(const std::string& path) {
  FilePtr f = open_or_throw(path, "rb");
  const int64_t size = file_size(f.get(), path);
  const int64_t sealed_end = size - static_cast<int64_t>(kSealSize);
  if (sealed_end >= static_cast<int64_t>(kEocdSize)) {
    const auto tail = read_at(f.get(), sealed_end, kSealSize, path);
    if (std::memcmp(tail.data(), kSealPrefix, sizeof(kSealPrefix) - 1) == 0 &&
        is_eocd(read_at(f.get(), sealed_end - kEocdSize, kEocdSize, path), kSealSize)) {
      const std::string stored(tail.begin() + sizeof(kSealPrefix) - 1, tail.end());
      if (digest_unsealed(f.get(), sealed_end, path) != stored)
        throw InputError(path, 0, "damaged: its bytes do not match the checksum sealed into it (a bad copy or disk?)");
      return ZipSeal::kSealed;
    }
  }
  if (size >= static_cast<int64_t>(kEocdSize) && is_eocd(read_at(f.get(), size - kEocdSize, kEocdSize, path), 0))
    return ZipSeal::kUnsealed;
  return ZipSeal::kNoEndRecord;
}

}  // namespace synmt
