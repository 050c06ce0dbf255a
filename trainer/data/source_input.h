#pragma once
// A batch of source sentences as every layer sees it: token ids (B, S) padded with kPad, lengths
// (B), and per-token side inputs (B, S) that a model may read (dependency parents, labels, POS,
// word spans) under the names below. It lives below nn/ and models/ because attention layers,
// score modifiers and embedding inputs all read it.
#include <torch/types.h>

#include <map>
#include <string>
#include <vector>

namespace synmt {

struct SourceInput {
  torch::Tensor tokens, lengths;
  std::map<std::string, torch::Tensor> features;
  // Per sentence, the surface forms of its <unk> tokens in order, when the source came with them
  // (has_unknown_forms: binarised splits and plain text do): a model that reads a word's characters
  // (LGP-NMT's n-grams) needs them for the words outside its vocabulary.
  std::vector<std::vector<std::string>> unknown_forms;
  bool has_unknown_forms = false;
  int64_t batch_size() const { return tokens.size(0); }
  bool has(const std::string& name) const { return features.count(name) > 0; }
  // The feature, or a ConfigError naming the feature and `who` needs it: a model that needs a
  // feature and does not get it must never fall back to decoding without it.
  const torch::Tensor& feature(const std::string& name, const std::string& who) const;
};
inline constexpr const char* kSourceFeatureParentPosition = "parent_position";  // float, Pascal's middle position
inline constexpr const char* kSourceFeatureParentFirst = "parent_first";        // int64, SISA's parent sub-word
inline constexpr const char* kSourceFeatureLabel = "label";                      // int64 dependency label id (0 = unknown)
inline constexpr const char* kSourceFeatureUpos = "upos";                        // int64 UPOS id (0 = unknown)
inline constexpr const char* kSourceFeatureWord = "word";                        // int64 word index of the sub-word

}  // namespace synmt
