#pragma once
// The output stage of synmt-translate: the best hypothesis per sentence as sub-words (--raw) or
// with BPE removed and optionally Moses-detokenised, UnkRep on it (each <unk> replaced by the
// source word its attention weighs most, or that word's dictionary entry), n-best lists and the
// best hypotheses' attention matrices. Every file is written atomically.
#include <string>
#include <vector>

#include "preprocess/vocab.h"
#include "trainer/decode/translator.h"

namespace synmt {

struct TranslationOutputOptions {
  std::string output = "-";     // hypotheses, one per line
  std::string output_tok;       // also tokenised (BPE-removed, not detokenised) hypotheses here
  std::string detok_lang;       // Moses-detokenise for this language (not with raw)
  bool raw = false;             // sub-words as produced
  std::string nbest_output;     // 'i ||| hypothesis ||| score ||| log-prob'
  std::string dump_attention;   // HDF5, synmt-attention-1
  bool unk_replace = false;
  std::string unk_dictionary;   // 'source target' lines for UnkRep
};

// `source_words`: per sentence the source sub-words UnkRep copies from (may be empty: no UnkRep).
void write_translations(const Translations& result, const Vocab& tgt_vocab,
                        const std::vector<std::vector<std::string>>& source_words, const TranslationOutputOptions& o);

// synmt-attention-1: per sentence the best hypothesis' rows x cols attention matrix.
void write_attention_dump(const std::string& path, const std::vector<std::vector<Hypothesis>>& hypotheses);

}  // namespace synmt
