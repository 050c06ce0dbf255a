#include "preprocess/spm_model_check.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string_view>

#include "core/error.h"

namespace synmt {
namespace {

// Protocol buffers' wire format (varints, length-delimited fields), enough to find two fields.
struct ProtoReader {
  std::string_view data;
  std::size_t pos = 0;
  bool done() const { return pos >= data.size(); }
  bool varint(uint64_t& out) {
    out = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= data.size()) return false;
      const auto byte = static_cast<uint8_t>(data[pos++]);
      out |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (byte < 0x80) return true;
    }
    return false;
  }
  // The next field: its number, and for length-delimited ones (wire type 2) its bytes. False on
  // malformed input.
  bool next(uint32_t& field, int& wire_type, std::string_view& bytes) {
    uint64_t key = 0, value = 0;
    if (!varint(key)) return false;
    field = static_cast<uint32_t>(key >> 3);
    wire_type = static_cast<int>(key & 7);
    switch (wire_type) {
      case 0: return varint(value);
      case 1: pos += 8; return pos <= data.size();
      case 5: pos += 4; return pos <= data.size();
      case 2:
        if (!varint(value) || value > data.size() - pos) return false;
        bytes = data.substr(pos, value);
        pos += value;
        return true;
      default: return false;
    }
  }
};

uint32_t load_u32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;  // little-endian, as sentencepiece stores it (x86, ARM)
}

// The precompiled charsmap: uint32 trie size, the darts-clone double array (32-bit units), then the
// normalised strings, NUL-separated. A unit's children are read at (pos ^ offset ^ label) for labels
// 0..255, so pos ^ offset with its low byte filled must stay inside the array; a value unit (top
// bit set) is an offset into the strings, which must leave a NUL before the end.
void check_charsmap(std::string_view blob, const std::string& path, const char* which) {
  const std::string where = std::string(which) + ".precompiled_charsmap: ";
  if (blob.empty()) return;
  if (blob.size() < 4) throw InputError(path, 0, where + "shorter than its header (damaged model)");
  const uint32_t trie_bytes = load_u32(blob.data());
  if (trie_bytes > blob.size() - 4 || trie_bytes % 4 != 0) throw InputError(path, 0, where + "trie size out of range (damaged model)");
  const std::string_view strings = blob.substr(4 + trie_bytes);
  const std::size_t units = trie_bytes / 4;
  const std::size_t last_nul = strings.rfind('\0');
  if (units == 0) throw InputError(path, 0, where + "a table without a trie (damaged model)");
  auto unit_at = [&](std::size_t p) { return load_u32(blob.data() + 4 + 4 * p); };
  for (std::size_t p = 0; p < units; ++p) {
    const uint32_t unit = unit_at(p);
    if (unit >> 31) continue;  // a value unit: its label never matches a byte, traversal stops there
    const std::size_t q = p ^ ((unit >> 10) << ((unit & (1u << 9)) >> 6));
    if ((q | 0xffu) >= units) throw InputError(path, 0, where + "a trie unit points outside the trie (damaged model)");
    const bool has_leaf = (unit >> 8) & 1;  // then unit q holds an offset into the normalised strings
    if (has_leaf && (last_nul == std::string_view::npos || (unit_at(q) & 0x7fffffffu) > last_nul))
      throw InputError(path, 0, where + "a trie value points outside the normalised strings (damaged model)");
  }
}

}  // namespace

void check_spm_model_bytes(const std::string& bytes, const std::string& path) {
  ProtoReader model{bytes};
  while (!model.done()) {
    uint32_t field = 0;
    int wire = 0;
    std::string_view value;
    if (!model.next(field, wire, value)) throw InputError(path, 0, "not a SentencePiece model (malformed protobuf)");
    if (wire != 2 || (field != 3 && field != 5)) continue;  // normalizer_spec = 3, denormalizer_spec = 5
    ProtoReader spec{value};
    while (!spec.done()) {
      uint32_t f = 0;
      int w = 0;
      std::string_view v;
      if (!spec.next(f, w, v)) throw InputError(path, 0, "not a SentencePiece model (malformed normaliser spec)");
      if (f == 2 && w == 2) check_charsmap(v, path, field == 3 ? "normalizer_spec" : "denormalizer_spec");
    }
  }
}

void check_spm_model_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "cannot open the SentencePiece model");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  check_spm_model_bytes(bytes, path);
}

}  // namespace synmt
