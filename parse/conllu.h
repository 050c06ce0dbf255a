#pragma once
// The parsing stage's names for the CoNLL-U document model, which lives in core/conllu.h (one
// model for parse/ and eval/).
#include "core/conllu.h"

namespace synmt::parse {

using conllu::ConlluReadOptions;
using conllu::ConlluRow;
using conllu::ConlluSentence;
using conllu::read_conllu;
using conllu::write_conllu;
using conllu::write_conllu_file;

}  // namespace synmt::parse
