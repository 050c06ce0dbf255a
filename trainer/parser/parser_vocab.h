#pragma once
// The builtin parser's vocabularies, built from a treebank's training part: word forms (lower-cased,
// frequency threshold, as the word-embedding table), character n-grams n = 2..4 of "^form$" (the
// n-gram embeddings averaged per word, as Hashimoto & Tsuruoka), UPOS tags and dependency labels.
// Saved as JSON inside the parser checkpoint.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

namespace synmt::parser {

class ParserVocab {
 public:
  static constexpr int32_t kPad = 0, kUnk = 1, kRoot = 2;  // word ids; n-gram ids 0 = pad, 1 = root

  // sentences: the word forms of each training sentence
  static ParserVocab build(const std::vector<std::vector<std::string>>& sentences, const std::vector<std::string>& upos,
                           const std::vector<std::string>& labels, int min_word_frequency, int min_ngram_frequency);
  // LGP-NMT's parser reads the NMT source vocabulary: word id = the NMT token id (tokens[k], the
  // NMT specials <pad> <unk> <s> </s> first, so <pad> and <unk> keep their ids and <s>'s id 2 is
  // <root>); n-grams are those of the NMT tokens (its frequency threshold made them), looked up
  // case-sensitively. upos / labels: the tag and label inventories (sorted).
  // fold_case (the NMT corpus is lower-cased): forms are lower-cased before word and n-gram lookups.
  static ParserVocab for_nmt_vocab(const std::vector<std::string>& tokens, const std::vector<std::string>& upos,
                                   const std::vector<std::string>& labels, bool fold_case = false);
  static ParserVocab from_json(const nlohmann::json& j);
  nlohmann::json to_json() const;

  int32_t word_id(const std::string& form) const;
  std::vector<int32_t> ngram_ids(const std::string& form) const;  // known n-grams only (may be empty)
  int32_t upos_id(const std::string& tag) const;                  // -1 when unknown
  int32_t label_id(const std::string& label) const;               // -1 when unknown
  int64_t words() const { return static_cast<int64_t>(words_.size()); }
  int64_t ngrams() const { return static_cast<int64_t>(ngrams_.size()); }
  const std::vector<std::string>& upos() const { return upos_; }
  const std::vector<std::string>& labels() const { return labels_; }
  const std::vector<std::string>& word_list() const { return words_; }

 private:
  void index();
  std::vector<std::string> words_, ngrams_, upos_, labels_;
  bool lowercase_ = true;         // word lookups lower-case the form (the builtin parser's own vocabulary)
  bool fold_ngram_case_ = false;  // n-gram lookups too (an NMT vocabulary of a lower-cased corpus)
  std::unordered_map<std::string, int32_t> word_index_, ngram_index_, upos_index_, label_index_;
};

// UD v2's 17 universal POS tags and 37 universal dependency relations (sorted): the inventories
// of a parser pre-trained for LGP-NMT+, whose sizes the model's options fix before any treebank is
// read. A treebank's relation subtypes (nsubj:pass) are reduced to their universal part.
const std::vector<std::string>& ud_upos();
const std::vector<std::string>& ud_relations();
std::string universal_relation(const std::string& label);

// the n-grams (n = 2..4, by code point) of "^form$"
std::vector<std::string> char_ngrams(const std::string& form);
std::string lowercase(const std::string& form);

}  // namespace synmt::parser
