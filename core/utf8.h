#pragma once
// UTF-8 validation and code point iteration. Hand-written because it is ~60 lines and on the hot path
// of every stage; ICU would force a UTF-16 round trip for each line.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace synmt::utf8 {

// Returns the byte offset of the first invalid sequence, or npos when the text is valid UTF-8
// (overlong forms, surrogates and code points above U+10FFFF are invalid).
std::size_t find_invalid(std::string_view text);
inline bool is_valid(std::string_view text) { return find_invalid(text) == std::string_view::npos; }

// Decodes one code point at `pos` (valid input assumed) and advances `pos`.
char32_t next(std::string_view text, std::size_t& pos);
void append(std::string& out, char32_t cp);
std::u32string decode(std::string_view text);
std::string encode(std::u32string_view text);

// Python's str.isspace(): what str.split() without arguments splits on.
bool is_python_space(char32_t cp);
// Advances `pos` past the code point there and says whether it is Python whitespace; only the
// sequences that can be whitespace (lead bytes C2, E1, E2, E3) are decoded, the rest skipped by
// their length (valid input assumed, as after LineReader).
inline bool next_is_python_space(std::string_view text, std::size_t& pos) {
  const auto c = static_cast<unsigned char>(text[pos]);
  if (c < 0x80) {
    ++pos;
    return c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F);
  }
  if (c == 0xC2 || c == 0xE1 || c == 0xE2 || c == 0xE3) return is_python_space(next(text, pos));
  const std::size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
  pos = pos + len < text.size() ? pos + len : text.size();
  return false;
}

// Python's str.split() without arguments: words between runs of Unicode whitespace.
std::vector<std::string> split_python_whitespace(std::string_view text);
std::vector<std::u32string> split_python_whitespace(std::u32string_view text);

}  // namespace synmt::utf8
