#pragma once
// A zip archive's central directory checked against the file before LibTorch reads it. LibTorch's
// reader (miniz) allocates the uncompressed size a member's directory entry claims before it
// inflates the member, and checks the claim only afterwards: a deflated member (LibTorch 2.x
// deflates the TorchScript sources under code/) claiming 4 GiB made a 68 KB checkpoint allocate
// 4 GiB (found by tests/fuzz/fuzz_checkpoint). A seal (core/sealed_zip.h) proves the bytes are
// the ones written, not that the writer wrote sane sizes, so both checks run. Torch-free.
#include <cstdint>
#include <string>
#include <vector>

namespace synmt {

struct ZipMember {
  std::string name;
  int method = 0;  // 0 stored, 8 deflated
  uint64_t compressed = 0;
  uint64_t uncompressed = 0;
  uint64_t data_offset = 0;  // where the member's (compressed) bytes start in the file
};

// Deflate cannot expand its input more than 1032-fold (a run of one byte: 258 bytes per 2-bit
// code plus block overhead), so a deflated member claiming more is damaged.
constexpr uint64_t kMaxDeflateRatio = 1032;

// Reads the central directory (zip64 included) and returns its members, after checking that the
// directory and every member's local header and bytes lie inside the file, that stored members
// claim as many bytes as they hold and deflated ones at most kMaxDeflateRatio times as many, and
// that no other compression method is used. InputError naming `path` (and the member) otherwise.
std::vector<ZipMember> check_zip_members(const std::string& path);

// The members' bytes, inflated when deflated, in order, from members check_zip_members returned
// (the file opened once); InputError naming `path` and the member when one does not inflate to
// the size the directory claims.
std::vector<std::string> read_zip_members(const std::string& path, const std::vector<ZipMember>& members);

}  // namespace synmt
