#pragma once
// Decoding a syntax model from a parse cache plus its text, without binarising: the sub-word source
// text (one sentence per line) with, for every line, the cache's tree mapped onto its sub-words and
// the pair's label/UPOS inventory ids (parse/source_syntax.h, the mapping synmt-binarize uses), as a
// ParallelData with empty targets whose attributes name the inventories (so a checkpoint trained
// with other inventories refuses it).
#include <string>

#include "preprocess/dataset_file.h"
#include "preprocess/vocab.h"

namespace synmt {

struct ParsedSourceFiles {
  std::string text;          // sub-word source text
  std::string cache;         // parse cache of its words
  std::string cache_corpus;  // the tokenised text the cache was made from (its key is checked)
  std::string labels, upos;  // the pair's inventories
  std::string subwords = "bpe";  // bpe | spm | none: how sub-words form words
};

ParallelData read_parsed_source(const ParsedSourceFiles& files, const Vocab& src_vocab);

}  // namespace synmt
