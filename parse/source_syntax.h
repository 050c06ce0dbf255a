#pragma once
// One source sentence's syntax as the models read it: the parse cache's word-level tree mapped
// onto the sentence's sub-words (parse/subword_mapping.h), with label and UPOS ids taken from the
// pair's inventories (parse/syntax_inventory.h) instead of the cache's own first-occurrence ids.
// synmt-binarize uses it for every split; a decoder can use it on a parse cache + the same text.
#include <cstdint>
#include <string>
#include <vector>

#include "parse/parse_cache.h"
#include "parse/subword_mapping.h"
#include "parse/syntax_inventory.h"

namespace synmt::parse {

// A parse cache's own label/UPOS ids -> inventory ids (0 = `<unk>`), computed once per cache.
struct CacheIdMap {
  std::vector<int32_t> label, upos;                         // indexed by the cache's ids
  std::vector<std::string> unknown_labels, unknown_upos;  // cache names the inventories lack
};
CacheIdMap map_cache_ids(const ParsedCorpus& parses, const SyntaxInventories& inventories);

struct SourceSyntax {
  std::vector<float> parent_middle;   // per sub-word: Pascal's parent position
  std::vector<int32_t> parent_first;  // per sub-word: SISA's parent sub-word
  std::vector<int32_t> label;         // per sub-word: the word's label (inventory id)
  std::vector<int32_t> upos;          // per sub-word: the word's UPOS (inventory id)
  std::vector<int32_t> word;          // per sub-word: 0-based word index
  std::vector<WordSpan> spans;        // per word: its sub-words (for models that collapse pieces)
  int64_t unknown_label_words = 0, unknown_upos_words = 0;  // words that got id 0
};

// Sentence i of `parses` mapped onto `pieces` (the sentence's sub-words, split at spaces).
// Throws std::invalid_argument when the word counts differ or a head is out of range (the caller
// names the corpus line).
SourceSyntax map_sentence_syntax(const std::vector<std::string>& pieces, const ParsedCorpus& parses, std::size_t i,
                                 const CacheIdMap& ids, SubwordMarks marks);

}  // namespace synmt::parse
