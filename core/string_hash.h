#pragma once
// A fast hash for short strings (words, tokens): 8 bytes per multiply-xorshift step, the last chunk
// zero-padded, the length mixed in at the end. Not for adversarial input; used for in-memory
// tables only (never stored). std::hash's per-byte loop showed up in BPE and BLEU profiles.
#include <cstdint>
#include <cstring>
#include <string_view>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "string_hash reads 8-byte chunks as little-endian numbers"
#endif

namespace synmt {

constexpr uint64_t kStringHashStart = 0x9e3779b97f4a7c15ULL;

inline uint64_t string_hash_chunk(uint64_t h, uint64_t chunk) {
  h = (h ^ chunk) * 0xff51afd7ed558ccdULL;
  return h ^ (h >> 29);
}

inline uint64_t string_hash_finish(uint64_t h, std::size_t length) {
  h = (h ^ length) * 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 32);
}

// The n (1 to 7) bytes at p as a little-endian number (zero-padded), without a memcpy of n
// bytes: that was a call, and its narrow stores stalled the wide load after it (a fifth of
// interning BPE units). Overlapping loads; bytes read twice hold the same value either way.
inline uint64_t load_short(const char* p, std::size_t n) {
  if (n >= 4) {
    uint32_t lo, hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + n - 4, 4);
    return uint64_t(lo) | (uint64_t(hi) << (8 * (n - 4)));
  }
  const auto byte = [p](std::size_t k) { return uint64_t(static_cast<unsigned char>(p[k])) << (8 * k); };
  return byte(0) | byte(n / 2) | byte(n - 1);
}

// Equal to feeding the string's 8-byte chunks (last one zero-padded) through string_hash_chunk
// and finishing with its length: callers that scan a word anyway can hash it on the way.
inline uint64_t string_hash(std::string_view s) {
  uint64_t h = kStringHashStart;
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h = string_hash_chunk(h, w);
  }
  if (i < s.size()) h = string_hash_chunk(h, load_short(s.data() + i, s.size() - i));
  return string_hash_finish(h, s.size());
}

}  // namespace synmt
