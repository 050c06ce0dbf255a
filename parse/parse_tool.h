#pragma once
// synmt-parse: dependency parses of a tokenised corpus (one sentence per line) into the HDF5 parse
// cache, from a CoreNLP server or an imported CoNLL-U file, and from backends a higher layer hands
// in (the builtin neural parser lives in trainer/, which parse/ must not depend on: its synmt-parse
// main passes it here). An existing cache with the same key (corpus sha256 + parser identity) is
// reused, not rebuilt.
#include <functional>
#include <string>
#include <vector>

#include "parse/parse_cache.h"

namespace synmt::parse {

// A parser backend given by the executable's main (e.g. "builtin" with a model file).
struct ParserBackend {
  std::string name;
  std::function<std::string(const std::string& model_path)> parser_id;  // the cache key's parser part
  std::function<ParsedCorpus(const std::string& corpus_path, const std::string& model_path)> parse;
};

// The whole tool (options, cache reuse, backends); returns the exit status.
int run_parse_tool(int argc, char** argv, const std::vector<ParserBackend>& extra_backends);

}  // namespace synmt::parse
