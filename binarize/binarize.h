#pragma once
// Binarisation as a library (synmt-binarize is its thin tool): vocabularies counted from text,
// label/UPOS inventories from a training split's parse cache, and one split of sub-word text
// turned into a ParallelData with its provenance attributes and, from a parse cache, the source
// side's syntax (parents, labels, UPOS per sub-word). It composes preprocess/ with parse/, so it
// stands above both.
#include <string>
#include <vector>

#include "core/line_reader.h"
#include "parse/parse_cache.h"
#include "parse/source_syntax.h"
#include "parse/syntax_inventory.h"
#include "preprocess/dataset_file.h"
#include "preprocess/vocab.h"

namespace synmt {

// Token counts of one or more files (a joint vocabulary from several), then Vocab::build.
Vocab build_vocab_from_files(const std::vector<std::string>& inputs, const VocabOptions& options);

// The label and UPOS inventories of a training split's parse cache, whose key is checked against
// the tokenised text `corpus` it was made from.
parse::SyntaxInventories build_inventories_from_cache(const std::string& cache, const std::string& corpus);

struct SplitFiles {
  std::string src, tgt;               // sub-word segmented text, one sentence per line
  std::string src_vocab, tgt_vocab;
  std::string codes;                  // BPE codes used (provenance only)
  std::string subwords = "bpe";       // bpe | spm | none: how sub-words form words
  // the source side's syntax (all four or none): the parse cache, the text it was made from,
  // the pair's inventories
  std::string src_parse, src_parse_corpus, src_labels, src_upos;
};

// A source side's parse cache (its key checked against the tokenised text `corpus` it was made
// from) with its labels and UPOS mapped onto the pair's inventories; labels and UPOS the
// inventories lack get id 0 and a warning. Sets data's inventory names.
struct SourceParses {
  std::string cache;
  parse::ParsedCorpus parses;
  parse::SyntaxInventories inventories;
  parse::CacheIdMap ids;
  int64_t unknown_labels = 0, unknown_upos = 0;  // words, summed over the sentences appended
};
SourceParses load_source_parses(const std::string& cache, const std::string& corpus, const std::string& labels,
                                const std::string& upos, ParallelData& data);

// Sentence data.size() of the cache mapped onto `pieces` (the sub-words of the source line `in`
// just read) and appended to data's syntax columns; a mismatch fails naming that line and the cache.
void append_sentence_syntax(const std::vector<std::string>& pieces, SourceParses& p, parse::SubwordMarks marks,
                            LineReader& in, ParallelData& data);

// One split as a dataset: token ids, word spans, unknown-word forms, the syntax fields when a
// parse cache is given, and attributes naming every input by its hash. Bad lines are InputErrors
// naming the file and line.
ParallelData binarize_split(const SplitFiles& files);

}  // namespace synmt
