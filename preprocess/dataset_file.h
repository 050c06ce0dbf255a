#pragma once
// The binarised parallel dataset (DESIGN.md §3): token ids as flat int32 arrays with int64 offsets,
// one HDF5 file per split, plus provenance attributes. Readers refuse a file whose vocabulary hashes
// differ from the vocabularies they were given.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace synmt {

inline constexpr const char* kDatasetFormat = "synmt-dataset-1";

struct ParallelData {
  std::vector<int32_t> src_tokens, tgt_tokens;
  std::vector<int64_t> src_offsets{0}, tgt_offsets{0};  // sentence i = [offsets[i], offsets[i+1])
  std::map<std::string, std::string> attributes;
  // Source-side syntax, one entry per source token (parallel to src_tokens), present when the
  // dataset was built with a parse cache (parse/subword_mapping.h explains the fields).
  std::vector<float> src_parent_middle;   // Pascal: middle position of the parent word's sub-words
  std::vector<int32_t> src_parent_first;  // SISA: first sub-word of the parent word
  std::vector<int32_t> src_label;         // S&H: the word's dependency label id
  std::vector<int32_t> src_word;          // the sub-word's word index (tree scoring)
  std::vector<std::string> src_label_names;
  bool has_source_syntax() const { return !src_parent_middle.empty(); }
  std::size_t size() const { return src_offsets.size() - 1; }
  void add(const std::vector<int32_t>& src, const std::vector<int32_t>& tgt);
};

void write_parallel_data(const std::string& path, const ParallelData& data);
// Throws InputError naming the file when the format, a vocabulary hash or the layout is wrong.
ParallelData read_parallel_data(const std::string& path, const std::string& src_vocab_hash,
                                const std::string& tgt_vocab_hash);

}  // namespace synmt
