#include "preprocess/punct_normalizer.h"

#include <unicode/uchar.h>

#include <utility>
#include <vector>

#include "core/utf8.h"

namespace synmt {
namespace {
using U32 = std::u32string;

void replace_all(U32& s, const U32& from, const U32& to) {
  if (from.empty() || s.find(from) == U32::npos) return;
  U32 out;
  out.reserve(s.size() + 8);
  for (std::size_t i = 0; i < s.size();) {
    if (s.compare(i, from.size(), from) == 0) {
      out += to;
      i += from.size();
    } else {
      out.push_back(s[i++]);
    }
  }
  s = std::move(out);
}

void collapse_spaces(U32& s) {  // " +" -> " "
  U32 out;
  out.reserve(s.size());
  for (char32_t c : s)
    if (!(c == U' ' && !out.empty() && out.back() == U' ')) out.push_back(c);
  s = std::move(out);
}

bool digit(char32_t c) { return u_charType(static_cast<UChar32>(c)) == U_DECIMAL_DIGIT_NUMBER; }  // Python \d
bool ascii_letter(char32_t c) { return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z'); }
bool space(char32_t c) { return utf8::is_python_space(c); }  // Python \s

// (A)M(B) -> A R B where M is one character, non-overlapping left to right
template <class L, class R>
void around(U32& s, L left, char32_t middle, R right, const U32& replacement_middle) {
  U32 out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i + 2 < s.size() && left(s[i]) && s[i + 1] == middle && right(s[i + 2])) {
      out.push_back(s[i]);
      out += replacement_middle;
      out.push_back(s[i + 2]);
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  s = std::move(out);
}
}  // namespace

std::string PunctNormalizer::normalize(const std::string& line) const {
  U32 s = utf8::decode(line);
  // extra whitespace
  replace_all(s, U"\r", U"");
  replace_all(s, U"(", U" (");
  replace_all(s, U")", U") ");
  collapse_spaces(s);
  {  // \) ([.!:?;,]) -> )\1
    U32 out;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (i + 2 < s.size() && s[i] == U')' && s[i + 1] == U' ' && U32(U".!:?;,").find(s[i + 2]) != U32::npos) {
        out.push_back(U')');
        out.push_back(s[i + 2]);
        i += 2;
      } else {
        out.push_back(s[i]);
      }
    }
    s = std::move(out);
  }
  replace_all(s, U"( ", U"(");
  replace_all(s, U" )", U")");
  around(s, digit, U' ', [](char32_t c) { return c == U'%'; }, U"");  // (\d) % -> \1%
  replace_all(s, U" :", U":");
  replace_all(s, U" ;", U";");
  if (penn_) {
    replace_all(s, U"`", U"'");
    replace_all(s, U"''", U" \" ");
  }
  // unicode quotes and dashes
  replace_all(s, U"„", U"\"");
  replace_all(s, U"“", U"\"");
  replace_all(s, U"”", U"\"");
  replace_all(s, U"–", U"-");
  replace_all(s, U"—", U" - ");
  collapse_spaces(s);
  replace_all(s, U"´", U"'");
  around(s, ascii_letter, U'‘', ascii_letter, U"'");
  around(s, ascii_letter, U'’', ascii_letter, U"'");
  replace_all(s, U"‘", U"'");
  replace_all(s, U"‚", U"'");
  replace_all(s, U"’", U"\"");  // the Perl script's rule (sacremoses without perl_parity maps it to ')
  replace_all(s, U"''", U"\"");
  replace_all(s, U"´´", U"\"");
  replace_all(s, U"…", U"...");
  // French quotes
  replace_all(s, U"\u00A0«\u00A0", U" \"");
  replace_all(s, U"«\u00A0", U"\"");
  replace_all(s, U"«", U"\"");
  replace_all(s, U"\u00A0»\u00A0", U"\" ");
  replace_all(s, U"\u00A0»", U"\"");
  replace_all(s, U"»", U"\"");
  // pseudo-spaces
  replace_all(s, U"\u00A0%", U"%");
  replace_all(s, U"nº\u00A0", U"nº ");
  replace_all(s, U"\u00A0:", U":");
  replace_all(s, U"\u00A0ºC", U" ºC");
  replace_all(s, U"\u00A0cm", U" cm");
  replace_all(s, U"\u00A0?", U"?");
  replace_all(s, U"\u00A0!", U"!");
  replace_all(s, U"\u00A0;", U";");
  replace_all(s, U",\u00A0", U", ");
  collapse_spaces(s);
  // quotes followed by commas / periods
  if (lang_ == "en") {  // "([,.]+) -> \1"
    U32 out;
    for (std::size_t i = 0; i < s.size();) {
      if (s[i] == U'"' && i + 1 < s.size() && (s[i + 1] == U',' || s[i + 1] == U'.')) {
        std::size_t j = i + 1;
        while (j < s.size() && (s[j] == U',' || s[j] == U'.')) ++j;
        out.append(s, i + 1, j - i - 1);
        out.push_back(U'"');
        i = j;
      } else {
        out.push_back(s[i++]);
      }
    }
    s = std::move(out);
  } else if (lang_ == "de" || lang_ == "es" || lang_ == "fr") {
    replace_all(s, U",\"", U"\",");
    U32 out;  // (\.+)"(\s*[^<]) -> "\1\2  (a period at the very end is left alone)
    for (std::size_t i = 0; i < s.size();) {
      if (s[i] == U'.') {
        std::size_t j = i;
        while (j < s.size() && s[j] == U'.') ++j;
        if (j < s.size() && s[j] == U'"') {
          std::size_t w = j + 1, e = w;
          while (e < s.size() && space(s[e])) ++e;
          std::size_t end = std::u32string::npos;
          if (e < s.size() && s[e] != U'<') end = e + 1;
          else if (e > w) end = e;  // the last whitespace character plays [^<]
          if (end != std::u32string::npos) {
            out.push_back(U'"');
            out.append(s, i, j - i);
            out.append(s, j + 1, end - j - 1);
            i = end;
            continue;
          }
        }
        out.append(s, i, j - i);
        i = j;
        continue;
      }
      out.push_back(s[i++]);
    }
    s = std::move(out);
  }
  // digit groups separated by a no-break space
  const bool comma = lang_ == "de" || lang_ == "es" || lang_ == "cz" || lang_ == "cs" || lang_ == "fr";
  around(s, digit, U'\u00A0', digit, comma ? U"," : U".");
  // str.strip()
  std::size_t b = 0, e = s.size();
  while (b < e && space(s[b])) ++b;
  while (e > b && space(s[e - 1])) --e;
  return utf8::encode(s.substr(b, e - b));
}

}  // namespace synmt
