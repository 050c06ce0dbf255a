#include "parse/source_syntax.h"

#include <stdexcept>

namespace synmt::parse {
namespace {

std::vector<int32_t> translate(const std::vector<std::string>& cache_names, const Inventory& inventory,
                               std::vector<std::string>& unknown) {
  std::vector<int32_t> out(cache_names.size(), 0);
  for (std::size_t k = 0; k < cache_names.size(); ++k) {
    out[k] = inventory.id(cache_names[k]);
    if (!inventory.contains(cache_names[k])) unknown.push_back(cache_names[k]);
  }
  return out;
}

int32_t lookup(const std::vector<int32_t>& table, int32_t cache_id) {
  if (cache_id < 0 || static_cast<std::size_t>(cache_id) >= table.size())
    throw std::invalid_argument("a label/UPOS id of the parse cache is out of range");
  return table[static_cast<std::size_t>(cache_id)];
}

}  // namespace

CacheIdMap map_cache_ids(const ParsedCorpus& parses, const SyntaxInventories& inventories) {
  CacheIdMap m;
  m.label = translate(parses.label_names, inventories.labels, m.unknown_labels);
  m.upos = translate(parses.upos_names, inventories.upos, m.unknown_upos);
  return m;
}

SourceSyntax map_sentence_syntax(const std::vector<std::string>& pieces, const ParsedCorpus& parses, std::size_t i,
                                 const CacheIdMap& ids, SubwordMarks marks) {
  if (i >= parses.size()) throw std::invalid_argument("the parse cache has only " + std::to_string(parses.size()) + " sentences");
  const auto begin = static_cast<std::size_t>(parses.offsets[i]), end = static_cast<std::size_t>(parses.offsets[i + 1]);
  std::vector<int32_t> labels(end - begin), upos(end - begin);
  SourceSyntax s;
  for (std::size_t w = begin; w < end; ++w) {
    labels[w - begin] = lookup(ids.label, parses.labels[w]);
    upos[w - begin] = lookup(ids.upos, parses.upos[w]);
    s.unknown_label_words += labels[w - begin] == 0;
    s.unknown_upos_words += upos[w - begin] == 0;
  }
  s.spans = word_spans(pieces, marks);
  SubwordTree tree = map_tree_to_subwords(s.spans, parses.sentence_heads(i), labels);
  s.parent_middle = std::move(tree.parent_middle);
  s.parent_first = std::move(tree.parent_first);
  s.label = std::move(tree.label);
  s.word = std::move(tree.word);
  s.upos.resize(s.word.size());
  for (std::size_t k = 0; k < s.word.size(); ++k) s.upos[k] = upos[static_cast<std::size_t>(s.word[k])];
  return s;
}

}  // namespace synmt::parse
