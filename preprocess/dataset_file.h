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
  std::size_t size() const { return src_offsets.size() - 1; }
  void add(const std::vector<int32_t>& src, const std::vector<int32_t>& tgt);
};

void write_parallel_data(const std::string& path, const ParallelData& data);
// Throws InputError naming the file when the format, a vocabulary hash or the layout is wrong.
ParallelData read_parallel_data(const std::string& path, const std::string& src_vocab_hash,
                                const std::string& tgt_vocab_hash);

}  // namespace synmt
