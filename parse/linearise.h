#pragma once
// Currey & Heafield (2019)-style multi-task data from dependency parses (Pascal's +C&H baseline).
// The paper linearises unlexicalised constituency trees; the parsers here are dependency parsers,
// so a source sentence's tree is linearised as labelled dependency brackets instead: each word w
// becomes one group "( ... )" holding, in word order, the groups of w's dependents and w's own
// dependency label at w's position. Every word contributes exactly one label, the brackets balance,
// and for a projective tree the labels appear in sentence order and the tree can be read back (the
// bare label of a group is its head). Example (docs/multitask.md):
//   "the dog barks" (the <-det- dog <-nsubj- barks = root)  ->  "( ( ( det ) nsubj ) root )"
#include <string>
#include <vector>

#include "parse/parse_cache.h"

namespace synmt::parse {

// heads: 1-based within the sentence, 0 = root; labels: one name per word. Throws ConfigError on a
// head out of range or a cycle (never emits an unbalanced or label-dropping string).
std::string linearise_dependencies(const std::vector<int32_t>& heads, const std::vector<std::string>& labels);

struct MultitaskCounts {
  std::size_t pairs = 0;        // translation pairs read
  std::size_t written = 0;      // lines written (2 x pairs)
  std::size_t words = 0;        // source words linearised
};

inline constexpr const char* kTranslateTag = "<TR>";
inline constexpr const char* kParseTag = "<PA>";

// Writes the C&H training mix: the N pairs "<TR> src <TR>" -> tgt, then the N pairs
// "<PA> src <PA>" -> linearised parse of src. The parse cache must belong to `src` (same sentence
// and word counts; an InputError names the file and line otherwise).
MultitaskCounts write_parse_multitask(const std::string& src, const std::string& tgt, const std::string& parse_cache,
                                      const std::string& out_src, const std::string& out_tgt);
// "<TR> line <TR>" for every line of `in` (validation and test: the translation task only).
std::size_t write_translation_tagged(const std::string& in, const std::string& out);

}  // namespace synmt::parse
