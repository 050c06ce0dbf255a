#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "core/sealed_zip.h"
#include "tests/test_util.h"

namespace {
// A complete zip archive with two stored members' worth of bytes before its end record: readers
// only look at the end record and what the seal covers.
std::string tiny_zip() {
  std::string body = "PK\x03\x04 member bytes of a tiny archive";
  std::string eocd("PK\x05\x06", 4);
  eocd.append(18, '\0');
  return body + eocd;
}

std::string error_of(const std::string& path) {
  try {
    synmt::verify_sealed_zip(path);
  } catch (const synmt::InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(SealedZip, SealVerifiesAndEveryDamageIsNamed) {
  EXPECT_EQ(synmt::verify_sealed_zip(synmt::test::write_tmp("plain.zip", tiny_zip())), synmt::ZipSeal::kUnsealed);
  std::string sealed = tiny_zip();
  synmt::seal_zip(sealed);
  const auto path = synmt::test::write_tmp("sealed.zip", sealed);
  ASSERT_EQ(sealed.size(), tiny_zip().size() + 77);
  EXPECT_EQ(sealed.substr(tiny_zip().size(), 13), "synmt-sha256:");
  EXPECT_EQ(static_cast<unsigned char>(sealed[tiny_zip().size() - 2]), 77);  // the end record's comment length
  EXPECT_EQ(synmt::verify_sealed_zip(path), synmt::ZipSeal::kSealed);
  // every single-bit flip before the seal is caught
  const std::size_t end_record = tiny_zip().size() - 22;
  for (std::size_t i = 0; i < tiny_zip().size(); ++i)
    for (int bit = 0; bit < 8; ++bit) {
      std::string flipped = sealed;
      flipped[i] = static_cast<char>(flipped[i] ^ (1 << bit));
      const auto damaged = synmt::test::write_tmp("flipped.zip", flipped);
      // the end record's signature (bytes 0-3) or comment length (20-21): no longer a sealed zip
      const std::size_t at = i - end_record;
      const bool unsealed = i >= end_record && (at < 4 || at >= 20);
      if (unsealed && error_of(damaged).empty())
        EXPECT_EQ(synmt::verify_sealed_zip(damaged), synmt::ZipSeal::kNoEndRecord) << "byte " << i << " bit " << bit;
      else
        EXPECT_NE(error_of(damaged).find("flipped.zip: damaged"), std::string::npos) << "byte " << i << " bit " << bit;
    }
  // truncations: inside the seal, inside the end record, half the file
  for (std::size_t keep : {sealed.size() - 1, sealed.size() - 77 - 5, sealed.size() / 2}) {
    const auto cut = synmt::test::write_tmp("cut.zip", sealed.substr(0, keep));
    EXPECT_EQ(synmt::verify_sealed_zip(cut), synmt::ZipSeal::kNoEndRecord) << keep;
  }
  EXPECT_THROW(synmt::seal_zip(sealed), std::invalid_argument);  // already has a comment
  std::string text = "not a zip";
  EXPECT_THROW(synmt::seal_zip(text), std::invalid_argument);
}

// unseal_zip gives back exactly the bytes that were sealed, and leaves bytes without a seal alone.
TEST(SealedZip, UnsealRestoresTheSealedBytes) {
  std::string bytes = tiny_zip();
  EXPECT_FALSE(synmt::unseal_zip(bytes));
  EXPECT_EQ(bytes, tiny_zip());
  synmt::seal_zip(bytes);
  EXPECT_TRUE(synmt::unseal_zip(bytes));
  EXPECT_EQ(bytes, tiny_zip());
  synmt::seal_zip(bytes);  // sealable again, to the same seal
  std::string once = tiny_zip();
  synmt::seal_zip(once);
  EXPECT_EQ(bytes, once);
  std::string cut = once.substr(0, once.size() - 1);  // a damaged seal is not a seal
  EXPECT_FALSE(synmt::unseal_zip(cut));
  EXPECT_EQ(cut, once.substr(0, once.size() - 1));
}
