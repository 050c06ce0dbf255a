#pragma once
// CoNLL-U for scoring: the syntactic words of each sentence with their surface tokens (multiword
// tokens remembered, empty nodes skipped), derived from core/conllu.h's document model (the one
// CoNLL-U reader), which reports malformed lines with the file and line.
#include <string>
#include <vector>

namespace synmt::eval {

struct ConlluWord {
  int id = 0;
  std::string form, lemma, upos, xpos, feats, deprel;
  int head = 0;
  int token = 0;        // index of the surface token (multiword tokens share one) within the sentence
  std::size_t line = 0;  // line in the file, for messages
};

struct ConlluSentence {
  std::vector<ConlluWord> words;  // words[k].id == k + 1
  std::vector<std::string> token_forms;  // surface tokens (the MWT form for multiword tokens)
  std::size_t first_line = 0;
};

std::vector<ConlluSentence> read_conllu(const std::string& path);

}  // namespace synmt::eval
