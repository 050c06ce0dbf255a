#pragma once
// How synmt-fetch turns a corpus file's bytes into one sentence per line. Corpora ship as plain
// text, as WMT's "fake SGML" / IWSLT's XML test sets (one <seg> per sentence), as WIT3's
// train.tags files (text lines between metadata lines) and as ASPEC's " ||| "-separated records.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace synmt::fetch {

enum class Format {
  text,   // the bytes as they are
  sgml,   // the text of each <seg ...>...</seg>, in order (WMT newstest*.sgm, IWSLT *.xml)
  tags,   // WIT3 train.tags.*: metadata lines dropped as fairseq's prepare-iwslt14.sh does
  field,  // one field of " ||| "-separated records (ASPEC-JE train/dev/test)
};

struct FormatSpec {
  Format kind = Format::text;
  int field = 0;  // Format::field: 0-based index; negative counts from the end (-1 = last)
};

// "text", "sgml", "tags" or "field:N" (N may be negative); a ConfigError names the bad value.
FormatSpec parse_format(const std::string& name);

// Feeds bytes in, emits converted output bytes (through `emit`). Errors are InputErrors naming
// `source` and, for line-based formats, the line.
class TextExtractor {
 public:
  using Emit = std::function<void(std::string_view)>;
  TextExtractor(FormatSpec format, std::string source, Emit emit);
  void feed(std::string_view chunk);
  // End of input: a last line without '\n' is processed; an open <seg> or a file without any
  // <seg> is an error (an SGML member that yields nothing is the wrong member, not an empty set).
  void finish();

 private:
  void line(std::string_view text);
  void sgml_line(std::string_view text);
  void emit_line(std::string_view text);
  [[noreturn]] void fail(std::size_t line, const std::string& message) const;

  FormatSpec format_;
  std::string source_;
  Emit emit_;
  std::string partial_;  // an incomplete last line between feed() calls
  std::size_t line_no_ = 0;
  bool in_seg_ = false;  // sgml: inside a <seg> whose </seg> is on a later line
  std::string seg_;
  std::size_t seg_line_ = 0, segs_ = 0;
};

// SGML/XML segment text as sacreBLEU and Moses' input-from-sgm.perl produce it: ASCII whitespace
// runs collapsed to one space, trimmed; then the XML entities (&amp; &lt; &gt; &quot; &apos;,
// &#N; &#xH;) unescaped. Anything else after '&' (WMT's unescaped "AT&T") stays as it is. Returns
// false with `error` set for a numeric entity that is no Unicode scalar value.
bool clean_segment(std::string_view raw, std::string& out, std::string& error);

}  // namespace synmt::fetch
