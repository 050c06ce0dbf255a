#include "preprocess/tokenizer.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "core/error.h"
#include "core/line_reader.h"
#include "core/utf8.h"
#include "preprocess/unicode_classes.h"

#ifndef SYNMT_SOURCE_DATA_DIR
#define SYNMT_SOURCE_DATA_DIR ""
#endif

namespace synmt {
namespace {

using U32 = std::u32string;
constexpr char32_t kMultiDot = 0xE000;  // private-use placeholder for "." inside runs of dots

bool is_space(char32_t c) {
  if (c < 0x80) return c == U' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F);
  return utf8::is_python_space(c);
}

U32 dedupe_spaces(const U32& s) {  // re.sub(r"\s+", " ")
  U32 out;
  out.reserve(s.size() + 1);
  for (char32_t c : s) {
    if (is_space(c)) {
      if (out.empty() || out.back() != U' ') out.push_back(U' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

U32 strip(const U32& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

U32 remove_ascii_junk(const U32& s) {  // re.sub(r"[\000-\037]", "")
  U32 out;
  for (char32_t c : s)
    if (c > 31) out.push_back(c);
  return out;
}

U32 pad_not_alnum(const U32& s) {  // ([^\p{IsAlnum}\s\.'`,\-]) -> " \1 "
  U32 out;
  out.reserve(s.size() * 2);
  for (char32_t c : s) {
    const bool ascii_alnum = (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z') || (c >= U'0' && c <= U'9');
    bool keep = ascii_alnum || (c >= 0x80 && uc::is_alnum(c)) || is_space(c) || c == U'.' || c == U'\'' || c == U'`' || c == U',' || c == U'-';
    if (keep) {
      out.push_back(c);
    } else {
      out.push_back(U' ');
      out.push_back(c);
      out.push_back(U' ');
    }
  }
  return out;
}

U32 aggressive_hyphens(const U32& s) {  // ([\p{IsAlnum}])\-(?=[\p{IsAlnum}]) -> "\1 @-@ "
  U32 out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    out.push_back(s[i]);
    if (uc::is_alnum(s[i]) && i + 2 < s.size() && s[i + 1] == U'-' && uc::is_alnum(s[i + 2])) {
      out += U" @-@ ";
      ++i;  // the hyphen is consumed; the next alnum is only looked at
    }
  }
  return out;
}

// Runs of two or more dots are set apart (" ..." plus a space before a following character) and
// hidden behind a placeholder until the end, exactly what the DOTMULTI rewriting of the Perl script
// achieves.
U32 protect_multidots(const U32& s) {
  if (s.find(U"..") == U32::npos) return s;
  U32 out;
  out.reserve(s.size() + 8);
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == U'.' && i + 1 < s.size() && s[i + 1] == U'.') {
      std::size_t j = i;
      while (j < s.size() && s[j] == U'.') ++j;
      out.push_back(U' ');
      out.append(j - i, kMultiDot);
      if (j < s.size()) out.push_back(U' ');
      i = j;
    } else {
      out.push_back(s[i++]);
    }
  }
  return out;
}

U32 restore_multidots(const U32& s) {
  U32 out = s;
  for (char32_t& c : out)
    if (c == kMultiDot) c = U'.';
  return out;
}

U32 separate_commas(const U32& in) {
  if (in.find(U',') == U32::npos) return in;  // nothing to separate (most lines)
  U32 s, out;
  s.reserve(in.size() * 2);
  out.reserve(in.size() * 2);
  // ([^\p{IsN}])[,] -> "\1 , "
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (i + 1 < in.size() && !uc::is_number(in[i]) && in[i + 1] == U',') {
      s.push_back(in[i]);
      s += U" , ";
      ++i;
    } else {
      s.push_back(in[i]);
    }
  }
  // [,]([^\p{IsN}]) -> " , \1"
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == U',' && i + 1 < s.size() && !uc::is_number(s[i + 1])) {
      out += U" , ";
      out.push_back(s[i + 1]);
      ++i;
    } else {
      out.push_back(s[i]);
    }
  }
  // ([\p{IsN}])[,]$ -> "\1 , "
  if (out.size() >= 2 && out.back() == U',' && uc::is_number(out[out.size() - 2])) {
    out.pop_back();
    out += U" , ";
  }
  return out;
}

// One pass of a three-character rule  (A)'(B) -> replacement, non-overlapping, left to right.
template <class Left, class Right>
U32 apostrophe_rule(const U32& s, Left left, Right right, const char32_t* between) {
  U32 out;
  out.reserve(s.size() + 16);
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i + 2 < s.size() && s[i + 1] == U'\'' && left(s[i]) && right(s[i + 2])) {
      out.push_back(s[i]);
      out += between;
      out.push_back(s[i + 2]);
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

U32 split_apostrophes(const U32& s, const std::string& lang) {
  if (s.find(U'\'') == U32::npos) return s;  // every rule needs an apostrophe
  auto alpha = [](char32_t c) { return uc::is_alpha(c); };
  auto not_alpha = [](char32_t c) { return !uc::is_alpha(c); };
  if (lang == "en") {
    U32 t = apostrophe_rule(s, not_alpha, not_alpha, U" ' ");
    t = apostrophe_rule(t, [](char32_t c) { return !uc::is_alpha(c) && !uc::is_number(c); }, alpha, U" ' ");
    t = apostrophe_rule(t, alpha, not_alpha, U" ' ");
    t = apostrophe_rule(t, alpha, alpha, U" '");
    return apostrophe_rule(t, [](char32_t c) { return uc::is_number(c); }, [](char32_t c) { return c == U's'; }, U" '");
  }
  if (lang == "fr" || lang == "it") {
    U32 t = apostrophe_rule(s, not_alpha, not_alpha, U" ' ");
    t = apostrophe_rule(t, not_alpha, alpha, U" ' ");
    t = apostrophe_rule(t, alpha, not_alpha, U" ' ");
    return apostrophe_rule(t, alpha, alpha, U"' ");
  }
  U32 out;
  for (char32_t c : s) {
    if (c == U'\'') out += U" ' ";
    else out.push_back(c);
  }
  return out;
}

U32 escape_xml(const U32& s) {
  U32 out;
  out.reserve(s.size() + 16);
  for (char32_t c : s) {
    switch (c) {
      case U'&': out += U"&amp;"; break;
      case U'|': out += U"&#124;"; break;
      case U'<': out += U"&lt;"; break;
      case U'>': out += U"&gt;"; break;
      case U'\'': out += U"&apos;"; break;
      case U'"': out += U"&quot;"; break;
      case U'[': out += U"&#91;"; break;
      case U']': out += U"&#93;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

std::string load_prefix_file(const std::string& dir, const std::string& lang) {
  std::string path = dir + "/nonbreaking_prefix." + lang;
  if (std::filesystem::exists(path)) return path;
  std::string fallback = dir + "/nonbreaking_prefix.en";  // tokenizer.perl falls back to English
  if (std::filesystem::exists(fallback)) return fallback;
  throw InputError(path, 0, "no non-breaking prefix file (set --prefix-dir or SYNMT_DATA_DIR)");
}

}  // namespace

std::string synmt_data_dir() {
  if (const char* env = std::getenv("SYNMT_DATA_DIR"); env != nullptr && *env != '\0') return env;
  return SYNMT_SOURCE_DATA_DIR;
}

MosesTokenizer::MosesTokenizer(TokenizerOptions options) : options_(std::move(options)) {
  std::string dir = options_.prefix_dir.empty() ? synmt_data_dir() + "/nonbreaking_prefixes" : options_.prefix_dir;
  for (const std::string& raw : read_lines(load_prefix_file(dir, options_.lang))) {
    U32 line = strip(utf8::decode(raw));
    if (line.empty() || line[0] == U'#') continue;
    std::size_t marker = line.find(U"#NUMERIC_ONLY#");
    if (marker != U32::npos && marker > 0 && is_space(line[marker - 1])) {
      numeric_only_prefixes_.insert(line.substr(0, line.rfind(U' ')));  // w.rpartition(" ")[0]
    } else {
      prefixes_.insert(line);
    }
  }
}

U32 MosesTokenizer::handle_nonbreaking_prefixes(const U32& text) const {
  std::vector<U32> tokens = utf8::split_python_whitespace(text);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const U32& token = tokens[i];
    if (token.size() < 2 || token.back() != U'.') continue;
    U32 prefix = token.substr(0, token.size() - 1);
    if (options_.split_final_period && i + 1 == tokens.size()) {
      tokens[i] = prefix + U" .";  // tokenizer.perl: last words are unlikely non-breaking prefixes
      continue;
    }
    bool has_dot_and_alpha = prefix.find(U'.') != U32::npos &&
                             std::any_of(prefix.begin(), prefix.end(), [](char32_t c) { return uc::is_alpha(c); });
    bool listed = prefixes_.count(prefix) && !numeric_only_prefixes_.count(prefix);
    bool next_lower = i + 1 < tokens.size() && uc::is_lower(tokens[i + 1][0]);
    if (has_dot_and_alpha || listed || next_lower) continue;
    bool numeric_next = numeric_only_prefixes_.count(prefix) && i + 1 < tokens.size() &&
                        tokens[i + 1][0] >= U'0' && tokens[i + 1][0] <= U'9';
    if (numeric_next) continue;
    tokens[i] = prefix + U" .";
  }
  U32 out;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (i) out.push_back(U' ');
    out += tokens[i];
  }
  return out;
}

std::string MosesTokenizer::tokenize(const std::string& line) const {
  U32 t = remove_ascii_junk(dedupe_spaces(utf8::decode(line)));
  t = strip(t);
  t = pad_not_alnum(t);
  if (options_.aggressive_dash_splits) t = aggressive_hyphens(t);
  t = protect_multidots(t);
  t = separate_commas(t);
  t = split_apostrophes(t, options_.lang);
  t = handle_nonbreaking_prefixes(t);
  t = strip(dedupe_spaces(t));
  // \.' ?$ -> " . ' "
  if (t.size() >= 2) {
    std::size_t end = t.size();
    if (t[end - 1] == U' ') --end;
    if (end >= 2 && t[end - 1] == U'\'' && t[end - 2] == U'.') t = t.substr(0, end - 2) + U" . ' ";
  }
  t = restore_multidots(t);
  if (options_.escape) t = escape_xml(t);
  return utf8::encode(t);
}

// ------------------------------------------------------------------------------------------------

MosesDetokenizer::MosesDetokenizer(std::string lang) : lang_(std::move(lang)) {}

namespace {
U32 unescape_xml(const U32& s) {
  static const std::pair<const char32_t*, char32_t> table[] = {
      {U"&bar;", U'|'}, {U"&#124;", U'|'}, {U"&lt;", U'<'}, {U"&gt;", U'>'}, {U"&bra;", U'['}, {U"&ket;", U']'},
      {U"&quot;", U'"'}, {U"&apos;", U'\''}, {U"&#91;", U'['}, {U"&#93;", U']'}, {U"&amp;", U'&'}};
  U32 out;
  for (std::size_t i = 0; i < s.size();) {
    bool replaced = false;
    if (s[i] == U'&') {
      for (const auto& [entity, c] : table) {
        U32 e(entity);
        if (s.compare(i, e.size(), e) == 0) {
          out.push_back(c);
          i += e.size();
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out.push_back(s[i++]);
  }
  return out;
}

bool all_of(const U32& s, bool (*pred)(char32_t)) {
  return !s.empty() && std::all_of(s.begin(), s.end(), pred);
}
bool attach_right_char(char32_t c) { return uc::is_currency(c) || c == U'(' || c == U'[' || c == U'{' || c == U'¿' || c == U'¡'; }
bool attach_left_char(char32_t c) {
  return c == U',' || c == U'.' || c == U'?' || c == U'!' || c == U':' || c == U';' || c == U'\\' || c == U'%' ||
         c == U'}' || c == U']' || c == U')';
}
bool quote_char(char32_t c) { return c == U'\'' || c == U'"' || c == U'„' || c == U'“' || c == U'`'; }
}  // namespace

std::string MosesDetokenizer::detokenize(const std::string& line) const {
  U32 text = unescape_xml(utf8::decode(line));
  // " @-@ " -> "-" (aggressive hyphen splitting undone)
  for (std::size_t p; (p = text.find(U" @-@ ")) != U32::npos;) text.replace(p, 5, U"-");
  std::vector<U32> tokens = utf8::split_python_whitespace(text);
  U32 out, prepend = U" ";
  int quotes_double = 0, quotes_single = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const U32& tok = tokens[i];
    if (all_of(tok, attach_right_char)) {
      out += prepend + tok;
      prepend = U"";
    } else if (all_of(tok, attach_left_char)) {
      if (lang_ == "fr" && tok.size() == 1 && U32(U"?!:;\\%").find(tok[0]) != U32::npos) out += U" ";
      out += tok;
      prepend = U" ";
    } else if (lang_ == "en" && i > 0 && tok.size() >= 2 && tok[0] == U'\'' && uc::is_alpha(tok[1])) {
      out += tok;  // English contractions attach left: "don 't" -> "don't"
      prepend = U" ";
    } else if ((lang_ == "fr" || lang_ == "it") && i + 1 < tokens.size() && tok.size() >= 2 &&
               tok.back() == U'\'' && uc::is_alpha(tok[tok.size() - 2]) && uc::is_alpha(tokens[i + 1][0])) {
      out += prepend + tok;
      prepend = U"";
    } else if (all_of(tok, quote_char)) {
      int& count = (tok[0] == U'\'' || tok[0] == U'`') ? quotes_single : quotes_double;
      if (count % 2 == 0) {
        if (lang_ == "en" && tok == U"'" && i > 0 && tokens[i - 1].back() == U's') {
          out += tok;  // possessive "the Jones' house"
          prepend = U" ";
        } else {
          out += prepend + tok;
          prepend = U"";
          ++count;
        }
      } else {
        out += tok;
        prepend = U" ";
        ++count;
      }
    } else {
      out += prepend + tok;
      prepend = U" ";
    }
  }
  return utf8::encode(strip(dedupe_spaces(out)));
}

}  // namespace synmt
