#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/error.h"
#include "preprocess/spm_model_check.h"
#include "tests/test_util.h"

// Fuzzing finding (tests/fuzz/fuzz_spm_model): libsentencepiece 0.1.97 read out of bounds on a
// damaged model whose normalisation trie held an offset past its strings. The check refuses such
// tables; a well-formed table and a real model pass.
namespace {
std::string varint(uint64_t v) {
  std::string out;
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    out += static_cast<char>(v ? b | 0x80 : b);
  } while (v);
  return out;
}
std::string bytes_field(uint32_t field, const std::string& bytes) { return varint(field << 3 | 2) + varint(bytes.size()) + bytes; }

// A 256-unit trie whose root (unit 0) has its leaf at unit 0 ^ root_offset holding `value`, then
// the normalised strings "a\0".
std::string charsmap(uint32_t root_offset, uint32_t value) {
  std::vector<uint32_t> units(256, 0);
  units[0] = (root_offset << 10) | (1u << 8);  // offset, has_leaf
  if (root_offset > 0 && root_offset < units.size()) units[root_offset] = (1u << 31) | value;
  std::string blob(4, '\0');
  const uint32_t trie_bytes = 4 * static_cast<uint32_t>(units.size());
  std::memcpy(blob.data(), &trie_bytes, 4);
  blob.append(reinterpret_cast<const char*>(units.data()), trie_bytes);
  blob += std::string("a\0", 2);
  return blob;
}
std::string model_with(const std::string& table) { return bytes_field(3, bytes_field(1, "nmt_nfkc") + bytes_field(2, table)); }

std::string error_of(const std::string& bytes) {
  try {
    synmt::check_spm_model_bytes(bytes, "m.model");
  } catch (const synmt::InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(SpmModelCheck, DamagedNormalisationTablesAreRefused) {
  EXPECT_EQ(error_of(model_with(charsmap(1, 0))), "");
  EXPECT_EQ(error_of(model_with("")), "");  // no table (identity normalisation)
  EXPECT_NE(error_of(model_with(charsmap(1, 7))).find("m.model: normalizer_spec.precompiled_charsmap: a trie value points outside"),
            std::string::npos);
  EXPECT_NE(error_of(model_with(charsmap(4096, 0))).find("a trie unit points outside the trie"), std::string::npos);
  std::string short_trie = charsmap(1, 0);
  const uint32_t too_long = 1u << 20;
  std::memcpy(short_trie.data(), &too_long, 4);
  EXPECT_NE(error_of(model_with(short_trie)).find("trie size out of range"), std::string::npos);
  EXPECT_NE(error_of("\xff\xff").find("not a SentencePiece model"), std::string::npos);
  // the model synmt-spm trained for the fuzz seeds (a real nmt_nfkc table) passes
  EXPECT_NO_THROW(synmt::check_spm_model_file(std::string(SYNMT_SOURCE_DIR) + "/tests/fuzz/corpus/fuzz_spm_model/bpe60.model"));
}
