#include "eval/bleu_tokenizers.h"

#include <unicode/uchar.h>

#include <memory>
#include <stdexcept>

#include "core/utf8.h"
#include "core/mecab_tokenizer.h"

namespace synmt::eval {
namespace {
// ' '.join(s.split()) with Python's whitespace; ASCII bytes decided without decoding.
std::string normalise_spaces(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  bool pending = false;
  std::size_t run = std::string::npos;  // start of the current run of non-space bytes
  auto flush = [&](std::size_t end) {
    if (run == std::string::npos) return;
    if (pending) out.push_back(' ');
    out.append(s, run, end - run);
    run = std::string::npos;
    pending = false;
  };
  for (std::size_t i = 0; i < s.size();) {
    std::size_t j = i;
    const bool space = utf8::next_is_python_space(s, j);
    const std::size_t len = j - i;
    if (space) {
      flush(i);
      pending = !out.empty();
    } else if (run == std::string::npos) {
      run = i;
    }
    i += len;
  }
  flush(s.size());
  return out;
}

std::string join_words(const std::string& s) { return normalise_spaces(s); }

std::string python_strip(const std::string& s) {
  std::u32string u = utf8::decode(s);
  std::size_t b = 0, e = u.size();
  while (b < e && utf8::is_python_space(u[b])) ++b;
  while (e > b && utf8::is_python_space(u[e - 1])) --e;
  return utf8::encode(u.substr(b, e - b));
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
}

bool in_13a_punct(unsigned char c) {  // [\{-\~\[-\` -\&\(-\+\:-\@\/]
  return (c >= 0x7B && c <= 0x7E) || (c >= 0x5B && c <= 0x60) || (c >= 0x20 && c <= 0x26) ||
         (c >= 0x28 && c <= 0x2B) || (c >= 0x3A && c <= 0x40) || c == 0x2F;
}
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

// The regex substitutions of sacreBLEU's TokenizerRegexp, each a left-to-right, non-overlapping scan.
// All patterns are ASCII, and a multi-byte UTF-8 character never matches [0-9] or the punctuation
// class, so scanning bytes gives the same result as scanning code points (a [^0-9] group may be
// the last byte of a multi-byte character, which is copied unchanged either way).
std::string regexp_tokenize(const std::string& in, bool normalise) {
  // Each pass writes into a reused buffer sized for its worst case (every byte padded).
  thread_local std::string a, b, c, d;
  auto pass = [](const std::string& src, std::string& dst, auto&& body) {
    dst.resize(src.size() * 4 + 4);
    char* out = dst.data();
    body(src, out);
    dst.resize(static_cast<std::size_t>(out - dst.data()));
  };
  pass(in, a, [](const std::string& s, char*& o) {  // punctuation class -> " c "
    for (unsigned char ch : s) {
      if (in_13a_punct(ch)) {
        *o++ = ' ';
        *o++ = static_cast<char>(ch);
        *o++ = ' ';
      } else {
        *o++ = static_cast<char>(ch);
      }
    }
  });
  const bool has_period_or_comma = a.find_first_of(".,") != std::string::npos;
  if (!has_period_or_comma) b = a;  // passes 2 and 3 need a period or comma
  else pass(a, b, [](const std::string& s, char*& o) {  // ([^0-9])([\.,]) -> "\1 \2 "
    const std::size_t n = s.size();
    for (std::size_t i = 0; i < n; ++i) {
      if (i + 1 < n && !is_digit(s[i]) && (s[i + 1] == '.' || s[i + 1] == ',')) {
        *o++ = s[i];
        *o++ = ' ';
        *o++ = s[i + 1];
        *o++ = ' ';
        ++i;
      } else {
        *o++ = s[i];
      }
    }
  });
  if (!has_period_or_comma) c = b;
  else pass(b, c, [](const std::string& s, char*& o) {  // ([\.,])([^0-9]) -> " \1 \2"
    const std::size_t n = s.size();
    for (std::size_t i = 0; i < n; ++i) {
      if (i + 1 < n && (s[i] == '.' || s[i] == ',') && !is_digit(s[i + 1])) {
        *o++ = ' ';
        *o++ = s[i];
        *o++ = ' ';
        std::size_t j = i + 1;  // the second group is a whole character: copy all of its bytes
        *o++ = s[j];
        if (static_cast<unsigned char>(s[j]) >= 0xC0)
          while (j + 1 < n && (static_cast<unsigned char>(s[j + 1]) & 0xC0) == 0x80) *o++ = s[++j];
        i = j;
      } else {
        *o++ = s[i];
      }
    }
  });
  if (c.find('-') == std::string::npos) return normalise ? normalise_spaces(c) : c;  // pass 4 needs a hyphen
  pass(c, d, [](const std::string& s, char*& o) {  // ([0-9])(-) -> "\1 \2 "
    const std::size_t n = s.size();
    for (std::size_t i = 0; i < n; ++i) {
      if (i + 1 < n && is_digit(s[i]) && s[i + 1] == '-') {
        *o++ = s[i];
        *o++ = ' ';
        *o++ = '-';
        *o++ = ' ';
        ++i;
      } else {
        *o++ = s[i];
      }
    }
  });
  return normalise ? normalise_spaces(d) : d;
}

bool in_gc(char32_t c, uint32_t mask) { return (U_GET_GC_MASK(static_cast<UChar32>(c)) & mask) != 0; }

// sacreBLEU's _UCODE_RANGES, compared as Python compares strings. Two of its bounds are written
// '\u20000' and '\u2f800', i.e. two characters each ('\u2000' '0'); a single character c lies
// between such bounds when U+2000 < c <= U+2A6D (resp. U+2F80 < c <= U+2FA1). Reproduced, since
// the tokenisation (and BLEU) depends on it.
bool is_sacrebleu_chinese(char32_t c) {
  static const std::pair<char32_t, char32_t> ranges[] = {
      {0x3400, 0x4db5}, {0x4e00, 0x9fa5}, {0x9fa6, 0x9fbb}, {0xf900, 0xfa2d}, {0xfa30, 0xfa6a}, {0xfa70, 0xfad9},
      {0x2001, 0x2a6d}, {0x2f81, 0x2fa1}, {0xff00, 0xffef}, {0x2e80, 0x2eff}, {0x3000, 0x303f}, {0x31c0, 0x31ef},
      {0x2f00, 0x2fdf}, {0x2ff0, 0x2fff}, {0x3100, 0x312f}, {0x31a0, 0x31bf}, {0xfe10, 0xfe1f}, {0xfe30, 0xfe4f},
      {0x2600, 0x26ff}, {0x2700, 0x27bf}, {0x3200, 0x32ff}, {0x3300, 0x33ff}};
  for (const auto& [a, b] : ranges)
    if (c >= a && c <= b) return true;
  return false;
}


}  // namespace

std::string tokenize_13a(const std::string& line_in, bool normalise) {
  std::string line = line_in;
  replace_all(line, "<skipped>", "");
  replace_all(line, "-\n", "");
  replace_all(line, "\n", " ");
  if (line.find('&') != std::string::npos) {
    replace_all(line, "&quot;", "\"");
    replace_all(line, "&amp;", "&");
    replace_all(line, "&lt;", "<");
    replace_all(line, "&gt;", ">");
  }
  return regexp_tokenize(" " + line + " ", normalise);
}


std::string tokenize_intl(const std::string& line) {
  std::u32string s = utf8::decode(line), a, b, c;
  const uint32_t P = U_GC_P_MASK, N = U_GC_N_MASK, S = U_GC_S_MASK;
  for (std::size_t i = 0; i < s.size(); ++i) {  // (\P{N})(\p{P}) -> "\1 \2 "
    if (i + 1 < s.size() && !in_gc(s[i], N) && in_gc(s[i + 1], P)) {
      a += s[i];
      a += U' ';
      a += s[i + 1];
      a += U' ';
      ++i;
    } else {
      a += s[i];
    }
  }
  for (std::size_t i = 0; i < a.size(); ++i) {  // (\p{P})(\P{N}) -> " \1 \2"
    if (i + 1 < a.size() && in_gc(a[i], P) && !in_gc(a[i + 1], N)) {
      b += U' ';
      b += a[i];
      b += U' ';
      b += a[i + 1];
      ++i;
    } else {
      b += a[i];
    }
  }
  for (char32_t ch : b) {  // (\p{S}) -> " \1 "
    if (in_gc(ch, S)) {
      c += U' ';
      c += ch;
      c += U' ';
    } else {
      c += ch;
    }
  }
  return join_words(utf8::encode(c));
}

std::string tokenize_zh(const std::string& line) {
  std::u32string out;
  for (char32_t ch : utf8::decode(python_strip(line))) {
    if (is_sacrebleu_chinese(ch)) {
      out += U' ';
      out += ch;
      out += U' ';
    } else {
      out += ch;
    }
  }
  return regexp_tokenize(utf8::encode(out), true);
}

std::string tokenize_char(const std::string& line) {
  std::string out;
  for (std::size_t i = 0; i < line.size();) {
    std::size_t start = i;
    char32_t ch = utf8::next(line, i);
    if (utf8::is_python_space(ch)) continue;
    if (!out.empty()) out.push_back(' ');
    out.append(line, start, i - start);
  }
  return out;
}

std::string tokenize_none(const std::string& line) { return join_words(line); }

std::function<std::string(const std::string&)> make_bleu_tokenizer(const std::string& name, const std::string& dicdir,
                                                                   bool only_split) {
  if (name == "13a" && only_split) return [](const std::string& line) { return tokenize_13a(line, false); };
  if (name == "13a") return [](const std::string& line) { return tokenize_13a(line); };
  if (name == "intl") return tokenize_intl;
  if (name == "zh") return tokenize_zh;
  if (name == "char") return tokenize_char;
  if (name == "none") return tokenize_none;
  if (name == "ja-mecab") {
    mecab_wakati("", dicdir);  // fails here, not in the middle of scoring, when MeCab cannot start
    return [dicdir](const std::string& line) { return python_strip(mecab_wakati(python_strip(line), dicdir)); };
  }
  throw std::invalid_argument("unknown BLEU tokenizer '" + name + "' (have: 13a, intl, zh, char, none, ja-mecab)");
}

}  // namespace synmt::eval
