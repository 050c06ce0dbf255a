#include "preprocess/fetch_text.h"

#include <cstdlib>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/utf8.h"

// WMT's test sets are "fake SGML" (raw '&' and '<' in text; sacreBLEU: "can't be properly parsed"),
// so no XML parser reads them; like sacreBLEU and Moses' input-from-sgm.perl, a <seg> is found by
// its tags. A <seg> may span lines (input-from-sgm.perl joins them too).

namespace synmt::fetch {

namespace {

bool ascii_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Position of `tag` (lower-case) in `s` from `from`, ignoring case; npos if absent.
std::size_t find_tag(std::string_view s, std::string_view tag, std::size_t from) {
  for (std::size_t i = from; i + tag.size() <= s.size(); ++i) {
    std::size_t k = 0;
    while (k < tag.size() && lower(s[i + k]) == tag[k]) ++k;
    if (k == tag.size()) return i;
  }
  return std::string_view::npos;
}

// An opening <seg> tag: "<seg" followed by '>' or whitespace (not "<segment").
std::size_t find_seg_open(std::string_view s, std::size_t from) {
  for (std::size_t p = find_tag(s, "<seg", from); p != std::string_view::npos; p = find_tag(s, "<seg", p + 1))
    if (p + 4 < s.size() && (s[p + 4] == '>' || ascii_space(s[p + 4]))) return p;
  return std::string_view::npos;
}

// Decodes the entity starting at s[i] == '&' into `out`; returns the characters consumed, 0 when it
// is no XML entity (the '&' is then copied as it is), or npos for an invalid numeric one.
std::size_t decode_entity(std::string_view s, std::size_t i, std::string& out) {
  static const std::pair<std::string_view, char> named[] = {
      {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
  for (const auto& [name, c] : named)
    if (s.substr(i, name.size()) == name) {
      out.push_back(c);
      return name.size();
    }
  if (s.substr(i, 2) != "&#") return 0;
  const bool hex = i + 2 < s.size() && (s[i + 2] == 'x' || s[i + 2] == 'X');
  const std::size_t digits = i + (hex ? 3 : 2);
  const std::size_t semi = s.find(';', digits);
  if (semi == std::string_view::npos || semi == digits || semi - digits > 8) return 0;
  char32_t cp = 0;
  for (std::size_t k = digits; k < semi; ++k) {
    const char c = lower(s[k]);
    int v;
    if (c >= '0' && c <= '9') v = c - '0';
    else if (hex && c >= 'a' && c <= 'f') v = c - 'a' + 10;
    else return 0;
    cp = cp * (hex ? 16 : 10) + static_cast<char32_t>(v);
  }
  if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::string_view::npos;
  // a character reference to a line break must not split the sentence into two lines
  utf8::append(out, cp == '\n' || cp == '\r' ? U' ' : cp);
  return semi + 1 - i;
}

}  // namespace

FormatSpec parse_format(const std::string& name) {
  if (name == "text") return {Format::text, 0};
  if (name == "sgml") return {Format::sgml, 0};
  if (name == "tags") return {Format::tags, 0};
  if (name.rfind("field:", 0) == 0) {
    const std::string n = name.substr(6);
    char* end = nullptr;
    const long v = std::strtol(n.c_str(), &end, 10);
    if (!n.empty() && *end == '\0' && v > -100 && v < 100) return {Format::field, static_cast<int>(v)};
  }
  throw ConfigError("unknown format '" + name + "' (text, sgml, tags or field:N)");
}

bool clean_segment(std::string_view raw, std::string& out, std::string& error) {
  std::string collapsed;
  for (char c : raw) {
    if (ascii_space(c)) {
      if (!collapsed.empty() && collapsed.back() != ' ') collapsed.push_back(' ');
    } else {
      collapsed.push_back(c);
    }
  }
  if (!collapsed.empty() && collapsed.back() == ' ') collapsed.pop_back();
  out.clear();
  for (std::size_t i = 0; i < collapsed.size();) {
    if (collapsed[i] != '&') {
      out.push_back(collapsed[i++]);
      continue;
    }
    const std::size_t used = decode_entity(collapsed, i, out);
    if (used == std::string_view::npos) {
      error = "invalid character reference '" + collapsed.substr(i, collapsed.find(';', i) + 1 - i) + "'";
      return false;
    }
    if (used == 0) out.push_back(collapsed[i++]);
    i += used;
  }
  return true;
}

TextExtractor::TextExtractor(FormatSpec format, std::string source, Emit emit)
    : format_(format), source_(std::move(source)), emit_(std::move(emit)) {}

void TextExtractor::fail(std::size_t line, const std::string& message) const {
  throw InputError(source_, line, message);
}

void TextExtractor::feed(std::string_view chunk) {
  if (format_.kind == Format::text) {
    emit_(chunk);
    return;
  }
  std::size_t b = 0;
  for (std::size_t e; (e = chunk.find('\n', b)) != std::string_view::npos; b = e + 1) {
    if (partial_.empty()) {
      line(chunk.substr(b, e - b));
    } else {
      partial_.append(chunk.substr(b, e - b));
      line(partial_);
      partial_.clear();
    }
  }
  partial_.append(chunk.substr(b));
}

void TextExtractor::finish() {
  if (format_.kind == Format::text) return;
  if (!partial_.empty()) {
    std::string last;
    last.swap(partial_);
    line(last);
  }
  if (format_.kind != Format::sgml) return;
  if (in_seg_) fail(seg_line_, "<seg> is never closed by </seg>");
  if (segs_ == 0) fail(0, "no <seg> element (not an SGML/XML test set?)");
}

void TextExtractor::emit_line(std::string_view text) {
  emit_(text);
  emit_("\n");
}

void TextExtractor::line(std::string_view text) {
  ++line_no_;
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  switch (format_.kind) {
    case Format::text:
      break;
    case Format::sgml:
      sgml_line(text);
      break;
    case Format::tags: {
      // fairseq's prepare-iwslt14.sh (after MIXER's prepareData.sh), which made the IWSLT14 split
      // the papers use: drop <url>, <talkid>, <keywords> lines; keep title and description text.
      for (std::string_view meta : {"<url>", "<talkid>", "<keywords>"})
        if (text.find(meta) != std::string_view::npos) return;
      std::string out(text);
      for (std::string_view tag : {"<title>", "</title>", "<description>", "</description>"})
        for (std::size_t p; (p = out.find(tag)) != std::string::npos;) out.erase(p, tag.size());
      emit_line(out);
      break;
    }
    case Format::field: {
      static constexpr std::string_view sep = " ||| ";
      std::vector<std::string_view> fields;
      std::size_t b = 0;
      for (std::size_t e; (e = text.find(sep, b)) != std::string_view::npos; b = e + sep.size())
        fields.push_back(text.substr(b, e - b));
      fields.push_back(text.substr(b));
      const int n = static_cast<int>(fields.size());
      const int k = format_.field < 0 ? n + format_.field : format_.field;
      if (k < 0 || k >= n)
        fail(line_no_, "has " + std::to_string(n) + " ' ||| '-separated field(s), format field:" +
                           std::to_string(format_.field) + " needs more");
      emit_line(fields[static_cast<std::size_t>(k)]);
      break;
    }
  }
}

void TextExtractor::sgml_line(std::string_view text) {
  std::size_t p = 0;
  while (p <= text.size()) {
    if (!in_seg_) {
      const std::size_t open = find_seg_open(text, p);
      const std::size_t close = find_tag(text, "</seg>", p);
      if (close != std::string_view::npos && (open == std::string_view::npos || close < open))
        fail(line_no_, "</seg> without an opening <seg>");
      if (open == std::string_view::npos) return;
      const std::size_t gt = text.find('>', open);
      if (gt == std::string_view::npos) fail(line_no_, "<seg tag is not closed by '>' on its line");
      in_seg_ = true;
      seg_line_ = line_no_;
      seg_.clear();
      p = gt + 1;
    }
    const std::size_t close = find_tag(text, "</seg>", p);
    const std::size_t nested = find_seg_open(text, p);
    if (nested != std::string_view::npos && (close == std::string_view::npos || nested < close))
      fail(line_no_, "<seg> inside the <seg> opened on line " + std::to_string(seg_line_));
    if (close == std::string_view::npos) {  // continues on the next line
      seg_.append(text.substr(p));
      seg_.push_back('\n');
      return;
    }
    seg_.append(text.substr(p, close - p));
    std::string clean, error;
    if (!clean_segment(seg_, clean, error)) fail(seg_line_, error);
    emit_line(clean);
    ++segs_;
    in_seg_ = false;
    p = close + 6;
  }
}

}  // namespace synmt::fetch
