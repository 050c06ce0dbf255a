#pragma once
// Parser backends that fill a ParsedCorpus for a tokenised corpus, one sentence per line, never
// re-splitting or re-tokenising a line (a line = one sentence with exactly its tokens, else a hard
// error naming the line):
//  - CoNLL-U import: parses made elsewhere (UDPipe, Stanza, spaCy), aligned line by line;
//  - CoreNLP: an HTTP client for a running Stanford CoreNLP server.
// The builtin neural parser (LibTorch) is in trainer/parser (builtin_backend.h), handed to
// synmt-parse by its LibTorch main (parse/parse_tool.h).
#include <string>
#include <vector>

#include "parse/parse_cache.h"

namespace synmt::parse {

// The corpus lines' whitespace tokens.
std::vector<std::vector<std::string>> read_tokenised_corpus(const std::string& path);

// Writes the parses with the corpus tokens as CoNLL-U (FORM, UPOS, HEAD, DEPREL; other columns '_').
void export_conllu(const std::string& corpus_path, const ParsedCorpus& parses, const std::string& output);

// Sentence i of `conllu_path` must have exactly the tokens of corpus line i (its syntactic words,
// or with `match_surface_tokens` its surface tokens when multiword tokens were split).
ParsedCorpus import_conllu(const std::string& corpus_path, const std::string& conllu_path);

struct CoreNlpOptions {
  std::string url = "http://localhost:9000";
  int batch_lines = 100;      // lines per request
  double timeout_seconds = 120;
  int retries = 4;            // further attempts after a failed request (connection, timeout, 5xx)
  double backoff_seconds = 1;  // doubled after every failed attempt
  std::string model_tag = "unversioned";  // part of the cache key: name the CoreNLP version/models
};

// Parses every line with annotators tokenize,ssplit,pos,depparse, tokenize.whitespace=true and
// ssplit.eolonly=true (JSON output; basicDependencies, PTB tags in the UPOS field). Throws
// InputError naming the corpus line when the server re-split or re-tokenised a line, and
// std::runtime_error with the URL when the server stays unreachable / failing after the retries.
ParsedCorpus parse_with_corenlp(const std::string& corpus_path, const CoreNlpOptions& options);

}  // namespace synmt::parse
