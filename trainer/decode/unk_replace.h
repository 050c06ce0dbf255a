#pragma once
// UnkRep (Luong et al. 2015's attention-based unknown-word replacement, as LGP-NMT uses it): each
// <unk> of a translation is replaced by the source word its attention weighs most at that output
// step, or by that word's dictionary translation when a dictionary is given and has it. Ties go to
// the earlier source word; attention on positions past the source words (a family's </s>) is not
// considered.
#include <torch/types.h>

#include <string>
#include <unordered_map>
#include <vector>

namespace synmt {

class UnkDictionary {
 public:
  // "source target" per line (whitespace-separated; the first translation of a word wins); an
  // empty path gives an empty dictionary. InputError naming path:line on a line without two fields.
  static UnkDictionary load(const std::string& path);
  void add(const std::string& source, const std::string& target) { entries_.emplace(source, target); }
  const std::string* find(const std::string& source) const;

 private:
  std::unordered_map<std::string, std::string> entries_;
};

// tokens: the output tokens (</s> excluded); attention (steps >= tokens, S): row t = output step t;
// source: the source words. Returns the tokens with every `unk` replaced.
std::vector<std::string> replace_unknowns(const std::vector<std::string>& tokens, const torch::Tensor& attention,
                                          const std::vector<std::string>& source, const UnkDictionary& dictionary,
                                          const std::string& unk = "<unk>");

}  // namespace synmt
