#pragma once
// SHA-256 through OpenSSL's EVP interface (well-kept, hardware-accelerated); used for corpus
// checksums and for the provenance attributes that tie datasets to their vocabularies and codes.
#include <memory>
#include <string>
#include <string_view>

namespace synmt {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(std::string_view data);
  std::string hex_digest();  // finalises; lower-case hex

 private:
  void* ctx_;
};

std::string sha256_hex(std::string_view data);
// Digest of a file's bytes as stored (no decompression).
std::string sha256_file(const std::string& path);

}  // namespace synmt
