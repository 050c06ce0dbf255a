#include "trainer/data/parsed_source.h"

#include "binarize/binarize.h"
#include "core/error.h"
#include "core/line_reader.h"
#include "core/strings.h"

namespace synmt {

ParallelData read_parsed_source(const ParsedSourceFiles& files, const Vocab& src_vocab) {
  ParallelData data;
  auto parses = load_source_parses(files.cache, files.cache_corpus, files.labels, files.upos, data);
  const auto marks = parse::subword_marks_from_name(files.subwords);
  LineReader in(files.text);
  std::string line;
  while (in.next(line)) {
    const auto pieces = split_nonempty(line, ' ');
    auto tokens = src_vocab.encode(line);
    if (tokens.empty()) in.fail("empty sentence");
    if (pieces.size() != tokens.size()) in.fail("sub-word count differs from the vocabulary encoding");
    append_sentence_syntax(pieces, parses, marks, in, data);  // sentence i of the cache belongs to line i
    data.add(tokens, {}, unknown_forms_of(pieces, tokens));
  }
  if (data.size() != parses.parses.size())
    throw InputError(files.cache, 0, "has " + std::to_string(parses.parses.size()) + " sentences but " + files.text + " has " +
                                         std::to_string(data.size()) + " lines");
  data.attributes[kSrcLabelInventoryAttr] = parses.inventories.labels.hash();
  data.attributes[kSrcUposInventoryAttr] = parses.inventories.upos.hash();
  return data;
}

}  // namespace synmt
