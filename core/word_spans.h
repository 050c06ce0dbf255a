#pragma once
// The words of a sub-word segmented sentence: which tokens form each word, read off the marks
// that BPE ("@@" continuation) and SentencePiece (U+2581 word start) leave in the text. Used to
// map word-level trees onto sub-words (parse/) and scores on sub-words back to words (eval/).
#include <cstdint>
#include <string>
#include <vector>

namespace synmt {

struct WordSpan {
  int32_t first = 0, last = 0;  // sub-word positions, inclusive, 0-based
};

// Words of a BPE-segmented sentence: a token ending in "@@" continues into the next token.
std::vector<WordSpan> word_spans_from_bpe(const std::vector<std::string>& subwords);
// Words of a SentencePiece-segmented sentence: a piece starting with U+2581 starts a word.
std::vector<WordSpan> word_spans_from_spm(const std::vector<std::string>& pieces);

// How a pair's source text marks words (the config's `subwords:`): BPE's "@@" continuation,
// SentencePiece's U+2581 word starts, or none (word-level text: every token is a word).
enum class SubwordMarks { bpe, spm, none };
// "bpe" | "spm" | "none"; throws std::invalid_argument otherwise.
SubwordMarks subword_marks_from_name(const std::string& name);
const char* subword_marks_name(SubwordMarks marks);
std::vector<WordSpan> word_spans(const std::vector<std::string>& pieces, SubwordMarks marks);

}  // namespace synmt
