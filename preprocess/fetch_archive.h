#pragma once
// Reading corpus files out of the archives they ship in (tar, tar.gz/tgz, zip, ...; libarchive
// detects the format and compression from the content), converting them (fetch_text.h) and
// checking them against the checksums the corpora files give.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/atomic_file.h"
#include "core/sha256.h"
#include "preprocess/fetch_text.h"

namespace synmt::fetch {

// A checksum as a corpora file gives it: "" or "-" (none), 64 hex digits (SHA-256), or "md5:" and
// 32 hex digits (sacreBLEU publishes only MD5s of the WMT test-set tarballs).
struct Checksum {
  std::string algorithm;  // "sha256", "md5" or "" (none)
  std::string hex;
  bool empty() const { return algorithm.empty(); }
};
Checksum parse_checksum(const std::string& text);  // ConfigError on a malformed one

// the digests live in core/sha256.h; named here, where the fetcher's callers look for them
using synmt::Digest;
using synmt::file_digest;
// InputError naming `path` when its bytes do not match (no-op for an empty checksum).
void verify_file(const std::string& path, const Checksum& expected);

// One output: bytes in, converted by `format`, hashed, written atomically; commit() checks the
// SHA-256 of what was written (if given) and only then renames the output into place.
class ConvertedOutput {
 public:
  ConvertedOutput(std::string source, FormatSpec format, std::string sha256, const std::string& output);
  void write(std::string_view chunk) { extractor_.feed(chunk); }
  void commit();

 private:
  std::string source_, sha256_;
  FormatSpec format_;
  AtomicFile out_;
  Sha256 hash_;
  TextExtractor extractor_;
};

struct MemberRequest {
  std::string member;  // path inside the archive ("./" prefixes are ignored on both sides)
  FormatSpec format;
  std::string sha256;  // of the converted output; empty: not checked
  std::string output;
};

// Writes every requested member of the archive at `path` in one pass (a member asked for twice
// feeds both outputs). A member that is not in the archive is an InputError naming the archive
// and listing the members with the nearest names.
void extract_members(const std::string& path, const std::vector<MemberRequest>& requests);

// The display name of a member in error messages: make's "archive(member)".
inline std::string member_name(const std::string& archive, const std::string& member) {
  return archive + "(" + member + ")";
}

}  // namespace synmt::fetch
