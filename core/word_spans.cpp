#include "core/word_spans.h"

#include <stdexcept>

namespace synmt {

std::vector<WordSpan> word_spans_from_bpe(const std::vector<std::string>& subwords) {
  std::vector<WordSpan> spans;
  bool continues = false;
  for (std::size_t i = 0; i < subwords.size(); ++i) {
    const auto pos = static_cast<int32_t>(i);
    if (continues) spans.back().last = pos;
    else spans.push_back({pos, pos});
    const std::string& t = subwords[i];
    continues = t.size() >= 2 && t.compare(t.size() - 2, 2, "@@") == 0;
  }
  return spans;
}

std::vector<WordSpan> word_spans_from_spm(const std::vector<std::string>& pieces) {
  static const std::string kSpace = "\xE2\x96\x81";  // U+2581, SentencePiece's word-start mark
  std::vector<WordSpan> spans;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const auto pos = static_cast<int32_t>(i);
    if (spans.empty() || pieces[i].compare(0, kSpace.size(), kSpace) == 0) spans.push_back({pos, pos});
    else spans.back().last = pos;
  }
  return spans;
}

SubwordMarks subword_marks_from_name(const std::string& name) {
  if (name == "bpe") return SubwordMarks::bpe;
  if (name == "spm") return SubwordMarks::spm;
  if (name == "none") return SubwordMarks::none;
  throw std::invalid_argument("unknown sub-word kind '" + name + "' (bpe, spm or none)");
}

const char* subword_marks_name(SubwordMarks marks) {
  switch (marks) {
    case SubwordMarks::bpe: return "bpe";
    case SubwordMarks::spm: return "spm";
    case SubwordMarks::none: return "none";
  }
  return "?";
}

std::vector<WordSpan> word_spans(const std::vector<std::string>& pieces, SubwordMarks marks) {
  if (marks == SubwordMarks::bpe) return word_spans_from_bpe(pieces);
  if (marks == SubwordMarks::spm) return word_spans_from_spm(pieces);
  std::vector<WordSpan> spans(pieces.size());  // word-level: a token is a word, even one ending in "@@"
  for (std::size_t i = 0; i < pieces.size(); ++i) spans[i] = {static_cast<int32_t>(i), static_cast<int32_t>(i)};
  return spans;
}

}  // namespace synmt
