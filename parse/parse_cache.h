#pragma once
// The parse cache (docs/file_formats.md): word-level dependency trees of one tokenised corpus, in HDF5,
// keyed by the sha256 of that corpus file and the parser identity (backend + model hash), so that
// every experiment over the same corpus and parser reuses one parse. Written atomically; a reader
// checks format, key, layout and a checksum of the arrays, and refuses a truncated or mismatched file.
#include <cstdint>
#include <string>
#include <vector>

namespace synmt::parse {

inline constexpr const char* kParseCacheFormat = "synmt-parse-cache-1";

struct ParsedCorpus {
  std::vector<int32_t> heads;   // per word, 1-based within its sentence, 0 = root
  std::vector<int32_t> labels;  // per word, index into label_names
  std::vector<int32_t> upos;    // per word, index into upos_names
  std::vector<int64_t> offsets{0};  // sentence i = words [offsets[i], offsets[i+1])
  std::vector<std::string> label_names, upos_names;
  std::string corpus_sha256;  // of the tokenised corpus file the parse belongs to
  std::string parser_id;      // e.g. "builtin:<model sha256>", "corenlp:<model tag>:<16 hex digits of the request properties' sha256>", "conllu:<file sha256>"

  std::size_t size() const { return offsets.size() - 1; }
  // Appends a sentence; labels/UPOS given as strings get ids (new names are added).
  void add(const std::vector<int32_t>& sentence_heads, const std::vector<std::string>& sentence_labels,
           const std::vector<std::string>& sentence_upos);
  std::vector<int32_t> sentence_heads(std::size_t i) const;
  std::vector<int32_t> sentence_labels(std::size_t i) const;
};

void write_parse_cache(const std::string& path, const ParsedCorpus& parses);
// The checksum write_parse_cache stores (content_sha256) over every array and name list: a cache
// whose arrays were cut or altered is refused.
std::string content_checksum(const ParsedCorpus& parses);
// Throws InputError naming `path` on any problem; an empty expected key skips that check.
ParsedCorpus read_parse_cache(const std::string& path, const std::string& expected_corpus_sha256,
                              const std::string& expected_parser_id);
// True when `path` is a valid cache for this key (the pipeline's "reuse or rebuild" test).
bool parse_cache_matches(const std::string& path, const std::string& corpus_sha256, const std::string& parser_id);

}  // namespace synmt::parse
