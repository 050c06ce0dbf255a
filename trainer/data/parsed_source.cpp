#include "trainer/data/parsed_source.h"

#include "core/error.h"
#include "core/line_reader.h"
#include "core/sha256.h"
#include "core/strings.h"
#include "parse/parse_cache.h"
#include "parse/source_syntax.h"

namespace synmt {

namespace {
template <class T>
void append(std::vector<T>& to, const std::vector<T>& from) {
  to.insert(to.end(), from.begin(), from.end());
}
}  // namespace

ParallelData read_parsed_source(const ParsedSourceFiles& files, const Vocab& src_vocab) {
  const auto parses = parse::read_parse_cache(files.cache, sha256_file(files.cache_corpus), "");
  const parse::SyntaxInventories inventories{parse::Inventory::load(files.labels), parse::Inventory::load(files.upos)};
  const auto ids = parse::map_cache_ids(parses, inventories);
  const auto marks = parse::subword_marks_from_name(files.subwords);
  ParallelData data;
  data.src_label_names = inventories.labels.names();
  data.src_upos_names = inventories.upos.names();
  LineReader in(files.text);
  std::string line;
  while (in.next(line)) {
    const auto pieces = split_nonempty(line, ' ');
    auto tokens = src_vocab.encode(line);
    if (tokens.empty()) in.fail("empty sentence");
    if (pieces.size() != tokens.size()) in.fail("sub-word count differs from the vocabulary encoding");
    parse::SourceSyntax s;
    try {
      s = parse::map_sentence_syntax(pieces, parses, data.size(), ids, marks);
    } catch (const std::invalid_argument& e) {
      in.fail(std::string("does not match the parse cache ") + files.cache + ": " + e.what());
    }
    append(data.src_parent_middle, s.parent_middle);
    append(data.src_parent_first, s.parent_first);
    append(data.src_label, s.label);
    append(data.src_upos, s.upos);
    append(data.src_word, s.word);
    data.add(tokens, {}, unknown_forms_of(pieces, tokens));
  }
  if (data.size() != parses.size())
    throw InputError(files.cache, 0, "has " + std::to_string(parses.size()) + " sentences but " + files.text + " has " +
                                         std::to_string(data.size()) + " lines");
  data.attributes[kSrcLabelInventoryAttr] = inventories.labels.hash();
  data.attributes[kSrcUposInventoryAttr] = inventories.upos.hash();
  return data;
}

}  // namespace synmt
