#pragma once
// From word-level dependency trees to the sub-word positions the models read (Pascal's sub-word parents, docs/parsing.md):
//  - Pascal: each sub-word's parent position is the middle of its parent word's sub-words (the
//    mean of their 0-based positions, may be x.5); every sub-word of a word gets the same value;
//    the root word's parent is itself.
//  - SISA: the parent of a sub-word is the first sub-word of its word's parent (root: itself).
//  - S&H: every sub-word carries its word's label.
// The word spans are kept too: tree scoring maps sub-word structures back to words with them.
#include <cstdint>
#include <string>
#include <vector>

namespace synmt::parse {

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

struct SubwordTree {
  std::vector<float> parent_middle;   // Pascal
  std::vector<int32_t> parent_first;  // SISA
  std::vector<int32_t> label;         // S&H (the word's label id)
  std::vector<int32_t> word;          // 0-based word of each sub-word
};

// heads: per word, 1-based, 0 = root; labels: per word. The number of spans must equal the number
// of words (the caller reports the corpus line on mismatch: std::invalid_argument says why).
SubwordTree map_tree_to_subwords(const std::vector<WordSpan>& spans, const std::vector<int32_t>& heads,
                                 const std::vector<int32_t>& labels);

}  // namespace synmt::parse
