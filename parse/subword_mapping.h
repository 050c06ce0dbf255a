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

#include "core/word_spans.h"

namespace synmt::parse {

// The word spans themselves live in core/ (eval/ reads them too); named here as before.
using synmt::subword_marks_from_name;
using synmt::subword_marks_name;
using synmt::SubwordMarks;
using synmt::word_spans;
using synmt::word_spans_from_bpe;
using synmt::word_spans_from_spm;
using synmt::WordSpan;

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
