#pragma once
// The binarised parallel dataset (docs/file_formats.md): token ids as flat int32 arrays with int64 offsets,
// one HDF5 file per split, plus provenance attributes. Readers refuse a file whose vocabulary hashes
// differ from the vocabularies they were given.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace synmt {

inline constexpr const char* kDatasetFormat = "synmt-dataset-1";

struct ParallelData {
  std::vector<int32_t> src_tokens, tgt_tokens;
  std::vector<int64_t> src_offsets{0}, tgt_offsets{0};  // sentence i = [offsets[i], offsets[i+1])
  std::map<std::string, std::string> attributes;
  // Per source token (parallel to src_tokens). src_word (the token's 0-based word in its
  // sentence) is written by every synmt-binarize data run: the word spans come from the sub-word
  // marks alone. The rest is present when the dataset was built with a parse cache
  // (parse/source_syntax.h explains the fields); older files may lack src_word and src_upos.
  std::vector<float> src_parent_middle;   // Pascal: middle position of the parent word's sub-words
  std::vector<int32_t> src_parent_first;  // SISA: first sub-word of the parent word
  std::vector<int32_t> src_label;         // S&H: the word's dependency label id (label inventory)
  std::vector<int32_t> src_upos;          // the word's UPOS id (UPOS inventory)
  std::vector<int32_t> src_word;          // the sub-word's word index
  // The inventories' names in id order (id 0 = "<unk>"); their sizes are the label/UPOS counts
  // the models' embeddings need (attributes src_label_count, src_upos_count).
  std::vector<std::string> src_label_names, src_upos_names;
  // The surface form of every <unk> source token (special::kUnk), in token order, and each
  // sentence's first form (sentences + 1): what a model reading a word's characters (LGP-NMT's
  // character n-grams) and UnkRep need of a word outside the vocabulary. Every synmt-binarize run
  // writes them; empty offsets: not known (a dataset of an older synmt, or built for a test).
  std::vector<std::string> src_unknown_forms;
  std::vector<int64_t> src_unknown_offsets;
  bool has_unknown_forms() const { return !src_unknown_offsets.empty(); }
  // Sentence i's <unk> forms.
  std::vector<std::string> unknown_forms(std::size_t i) const;
  bool has_source_syntax() const { return !src_parent_middle.empty(); }
  bool has_source_upos() const { return !src_upos.empty(); }
  bool has_word_spans() const { return !src_word.empty(); }
  // Sentence i's words as (first, last) token positions within the sentence, inclusive.
  std::vector<std::pair<int32_t, int32_t>> src_word_spans(std::size_t i) const;
  std::size_t size() const { return src_offsets.size() - 1; }
  void add(const std::vector<int32_t>& src, const std::vector<int32_t>& tgt);
  // With the surface forms of src's <unk> tokens (one per kUnk, in order; std::invalid_argument
  // otherwise). A dataset is built with forms from its first sentence on, or without any.
  void add(const std::vector<int32_t>& src, const std::vector<int32_t>& tgt, const std::vector<std::string>& unknown_forms);
};

// The pieces whose id is <unk> (pieces and ids of one sentence, parallel): ParallelData::add's forms.
std::vector<std::string> unknown_forms_of(const std::vector<std::string>& pieces, const std::vector<int32_t>& ids);

void write_parallel_data(const std::string& path, const ParallelData& data);
// Throws InputError naming the file when the format, a vocabulary or inventory hash or the layout
// is wrong. An empty expected hash skips that check; a dataset without source syntax passes the
// inventory checks (its features are just absent).
ParallelData read_parallel_data(const std::string& path, const std::string& src_vocab_hash,
                                const std::string& tgt_vocab_hash, const std::string& src_label_inventory_hash = "",
                                const std::string& src_upos_inventory_hash = "");

// Attribute names of the syntax provenance (docs/file_formats.md).
inline constexpr const char* kSrcLabelInventoryAttr = "src_label_inventory_sha256";
inline constexpr const char* kSrcLabelCountAttr = "src_label_count";
inline constexpr const char* kSrcUposInventoryAttr = "src_upos_inventory_sha256";
inline constexpr const char* kSrcUposCountAttr = "src_upos_count";

}  // namespace synmt
