#pragma once
// Binarisation as a library (synmt-binarize is its thin tool): vocabularies counted from text,
// label/UPOS inventories from a training split's parse cache, and one split of sub-word text
// turned into a ParallelData with its provenance attributes and, from a parse cache, the source
// side's syntax (parents, labels, UPOS per sub-word). It composes preprocess/ with parse/, so it
// stands above both.
#include <string>
#include <vector>

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

// One split as a dataset: token ids, word spans, unknown-word forms, the syntax fields when a
// parse cache is given, and attributes naming every input by its hash. Bad lines are InputErrors
// naming the file and line.
ParallelData binarize_split(const SplitFiles& files);

}  // namespace synmt
