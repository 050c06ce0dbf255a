#include "core/sha256.h"

#include <openssl/evp.h>

#include <fstream>
#include <stdexcept>

#include "core/error.h"

namespace synmt {

Digest::Digest(const std::string& algorithm) : ctx_(EVP_MD_CTX_new()) {
  const EVP_MD* md = EVP_get_digestbyname(algorithm.c_str());
  if (ctx_ == nullptr || md == nullptr || EVP_DigestInit_ex(static_cast<EVP_MD_CTX*>(ctx_), md, nullptr) != 1) {
    EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_));
    throw std::runtime_error("OpenSSL: cannot initialise " + algorithm);
  }
}

Digest::~Digest() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_)); }

void Digest::update(std::string_view data) {
  EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(ctx_), data.data(), data.size());
}

std::string Digest::hex() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(ctx_), digest, &len);
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out.push_back(digits[digest[i] >> 4]);
    out.push_back(digits[digest[i] & 15]);
  }
  return out;
}

std::string sha256_hex(std::string_view data) {
  Sha256 h;
  h.update(data);
  return h.hex_digest();
}

std::string file_digest(const std::string& path, const std::string& algorithm) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "cannot open");
  Digest d(algorithm);
  std::string buf(1 << 16, '\0');
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    d.update(std::string_view(buf.data(), static_cast<std::size_t>(in.gcount())));
  }
  return d.hex();
}

std::string sha256_file(const std::string& path) { return file_digest(path, "SHA256"); }

}  // namespace synmt
