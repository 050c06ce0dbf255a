#pragma once
// The builtin neural parser (BuiltinParser) as a synmt-parse backend: Moses-escaped tokens are
// unescaped for it, and the parser identity in the cache key is the model file's sha256.
#include <string>

#include "parse/parse_cache.h"
#include "parse/parse_tool.h"

namespace synmt::parser {

parse::ParsedCorpus parse_with_builtin(const std::string& corpus_path, const std::string& model_path);
std::string builtin_parser_id(const std::string& model_path);  // "builtin:<sha256 of the model>"
parse::ParserBackend builtin_parser_backend();

}  // namespace synmt::parser
