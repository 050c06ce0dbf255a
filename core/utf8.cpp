#include "core/utf8.h"

#include <cstdint>
#include <cstring>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "find_invalid reads 8-byte chunks as little-endian"
#endif

namespace synmt::utf8 {

std::size_t find_invalid(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  std::size_t i = 0;
  while (i < n) {
    // ASCII fast path, 32 then 8 bytes at a time: most lines of most corpora are largely ASCII
    while (i + 32 <= n) {
      uint64_t w[4];
      std::memcpy(w, p + i, 32);
      if ((w[0] | w[1] | w[2] | w[3]) & 0x8080808080808080ULL) break;
      i += 32;
    }
    while (i + 8 <= n) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      if (const uint64_t high = w & 0x8080808080808080ULL) {
        i += static_cast<std::size_t>(__builtin_ctzll(high)) / 8;  // straight to the first non-ASCII byte
        break;
      }
      i += 8;
    }
    if (i >= n) break;
    // The well-formed byte sequences of Unicode's Table 3-7, checked byte by byte without
    // decoding: the second byte's range depends on the lead (this excludes overlong forms,
    // surrogates and code points above U+10FFFF), later bytes are plain continuation bytes.
    const unsigned char c = p[i];
    if (c < 0x80) { ++i; continue; }
    auto cont = [&](std::size_t k) { return i + k < n && (p[i + k] & 0xC0) == 0x80; };
    if (c >= 0xC2 && c <= 0xDF) {
      if (!cont(1)) return i;
      i += 2;
      continue;
    }
    if (c >= 0xE0 && c <= 0xF4) {
      const std::size_t len = c >= 0xF0 ? 4 : 3;
      if (i + len - 1 >= n) return i;
      const unsigned char b = p[i + 1];
      const unsigned char lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
      const unsigned char hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
      if (b < lo || b > hi || !cont(2) || (len == 4 && !cont(3))) return i;
      i += len;
      continue;
    }
    return i;  // a continuation byte without a lead, C0/C1 (always overlong) or F5..FF
  }
  return std::string_view::npos;
}

char32_t next(std::string_view s, std::size_t& pos) {
  const auto c = static_cast<unsigned char>(s[pos]);
  if (c < 0x80) { ++pos; return c; }
  std::size_t len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : 4;
  char32_t cp = c & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
  for (std::size_t k = 1; k < len && pos + k < s.size(); ++k)
    cp = (cp << 6) | (static_cast<unsigned char>(s[pos + k]) & 0x3F);
  pos += len;
  return cp;
}

void append(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

std::u32string decode(std::string_view s) {
  std::u32string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) out.push_back(next(s, i));
  return out;
}

std::string encode(std::u32string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char32_t cp : s) append(out, cp);
  return out;
}

bool is_python_space(char32_t c) {
  switch (c) {
    case 0x09: case 0x0A: case 0x0B: case 0x0C: case 0x0D: case 0x1C: case 0x1D: case 0x1E: case 0x1F:
    case 0x20: case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F:
    case 0x3000:
      return true;
    default:
      return c >= 0x2000 && c <= 0x200A;
  }
}

std::vector<std::string> split_python_whitespace(std::string_view s) {
  std::vector<std::string> words;
  std::string cur;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t start = i;
    char32_t c = next(s, i);
    if (is_python_space(c)) {
      if (!cur.empty()) words.push_back(std::move(cur));
      cur.clear();
    } else {
      cur.append(s.substr(start, i - start));
    }
  }
  if (!cur.empty()) words.push_back(std::move(cur));
  return words;
}

std::vector<std::u32string> split_python_whitespace(std::u32string_view s) {
  std::vector<std::u32string> words;
  std::u32string cur;
  for (char32_t c : s) {
    if (is_python_space(c)) {
      if (!cur.empty()) words.push_back(std::move(cur));
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  if (!cur.empty()) words.push_back(std::move(cur));
  return words;
}

}  // namespace synmt::utf8
