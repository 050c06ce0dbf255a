#include "preprocess/dataset_digest.h"

#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

#include "core/sha256.h"

namespace synmt {

// ParallelData's members, counted: 10 arrays of numbers, 3 of strings and the attributes. A
// member added to it fails this assertion until it is added to content_sha256 below (and to
// write_parallel_data/read_parallel_data and test_dataset_digest's per-array case), and the count
// here raised: a new feature array the digest missed would let a resume onto other data pass.
static_assert(sizeof(ParallelData) ==
                  13 * sizeof(std::vector<int32_t>) + sizeof(std::map<std::string, std::string>),
              "ParallelData has a member content_sha256 does not know: add it to the digest, then to this count");

namespace {
// Native byte order: the digest compares datasets read on machines of one byte order (every
// platform synmt builds for is little-endian), not files.
template <class T>
void add_array(Sha256& digest, std::string_view name, const std::vector<T>& values) {
  const uint64_t count = values.size();
  digest.update(name);
  digest.update(std::string_view(reinterpret_cast<const char*>(&count), sizeof count));
  digest.update(std::string_view(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)));
}

void add_strings(Sha256& digest, std::string_view name, const std::vector<std::string>& values) {
  std::vector<uint64_t> lengths;
  lengths.reserve(values.size());
  for (const auto& v : values) lengths.push_back(v.size());
  add_array(digest, name, lengths);
  for (const auto& v : values) digest.update(v);
}
}  // namespace

std::string content_sha256(const ParallelData& d) {
  Sha256 digest;
  add_array(digest, "src_tokens", d.src_tokens);
  add_array(digest, "src_offsets", d.src_offsets);
  add_array(digest, "tgt_tokens", d.tgt_tokens);
  add_array(digest, "tgt_offsets", d.tgt_offsets);
  add_array(digest, "src_parent_middle", d.src_parent_middle);
  add_array(digest, "src_parent_first", d.src_parent_first);
  add_array(digest, "src_label", d.src_label);
  add_array(digest, "src_upos", d.src_upos);
  add_array(digest, "src_word", d.src_word);
  add_strings(digest, "src_label_names", d.src_label_names);
  add_strings(digest, "src_upos_names", d.src_upos_names);
  add_strings(digest, "src_unknown_forms", d.src_unknown_forms);
  add_array(digest, "src_unknown_offsets", d.src_unknown_offsets);
  return digest.hex_digest();
}

}  // namespace synmt
