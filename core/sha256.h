#pragma once
// SHA-256 (and the other checksums corpora publish, e.g. MD5) through OpenSSL's EVP interface (well-kept, hardware-accelerated); used for corpus
// checksums and for the provenance attributes that tie datasets to their vocabularies and codes.
#include <memory>
#include <string>
#include <string_view>

namespace synmt {

// Incremental digest of one algorithm by OpenSSL name ("SHA256", "md5", ...).
class Digest {
 public:
  explicit Digest(const std::string& algorithm);
  ~Digest();
  Digest(const Digest&) = delete;
  Digest& operator=(const Digest&) = delete;
  void update(std::string_view data);
  std::string hex();  // finalises; lower-case hex

 private:
  void* ctx_;
};

class Sha256 : public Digest {
 public:
  Sha256() : Digest("SHA256") {}
  std::string hex_digest() { return hex(); }
};

std::string sha256_hex(std::string_view data);
// Digest of a file's bytes as stored (no decompression).
std::string file_digest(const std::string& path, const std::string& algorithm);
std::string sha256_file(const std::string& path);

}  // namespace synmt
