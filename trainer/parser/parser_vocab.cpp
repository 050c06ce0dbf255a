#include "trainer/parser/parser_vocab.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "core/utf8.h"

namespace synmt::parser {

std::string lowercase(const std::string& form) {
  // ASCII lower-casing is enough for the embedding key: non-ASCII words keep their case and are
  // still covered by the case-sensitive character n-grams.
  std::string s = form;
  for (auto& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

const std::vector<std::string>& ud_upos() {
  static const std::vector<std::string> tags{"ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM",
                                             "PART", "PRON", "PROPN", "PUNCT", "SCONJ", "SYM", "VERB", "X"};
  return tags;
}

const std::vector<std::string>& ud_relations() {
  static const std::vector<std::string> relations{
      "acl", "advcl", "advmod", "amod", "appos", "aux", "case", "cc", "ccomp", "clf", "compound", "conj", "cop",
      "csubj", "dep", "det", "discourse", "dislocated", "expl", "fixed", "flat", "goeswith", "iobj", "list", "mark",
      "nmod", "nsubj", "nummod", "obj", "obl", "orphan", "parataxis", "punct", "reparandum", "root", "vocative", "xcomp"};
  return relations;
}

std::string universal_relation(const std::string& label) { return label.substr(0, label.find(':')); }

std::vector<std::string> char_ngrams(const std::string& form) {
  std::vector<std::string> chars{"^"};
  for (std::size_t i = 0; i < form.size();) {
    std::size_t len = 1;
    const auto c = static_cast<unsigned char>(form[i]);
    if (c >= 0xF0) len = 4;
    else if (c >= 0xE0) len = 3;
    else if (c >= 0xC0) len = 2;
    chars.push_back(form.substr(i, len));
    i += len;
  }
  chars.push_back("$");
  std::vector<std::string> out;
  for (std::size_t n = 2; n <= 4; ++n)
    for (std::size_t i = 0; i + n <= chars.size(); ++i) {
      std::string g;
      for (std::size_t k = i; k < i + n; ++k) g += chars[k];
      out.push_back(std::move(g));
    }
  return out;
}

ParserVocab ParserVocab::build(const std::vector<std::vector<std::string>>& sentences, const std::vector<std::string>& upos,
                               const std::vector<std::string>& labels, int min_word_frequency, int min_ngram_frequency) {
  std::map<std::string, int64_t> word_counts, ngram_counts;
  for (const auto& s : sentences)
    for (const auto& w : s) {
      ++word_counts[lowercase(w)];
      for (const auto& g : char_ngrams(w)) ++ngram_counts[g];
    }
  ParserVocab v;
  v.words_ = {"<pad>", "<unk>", "<root>"};
  for (const auto& [w, c] : word_counts)
    if (c >= min_word_frequency) v.words_.push_back(w);
  v.ngrams_ = {"<pad>", "<root>"};
  for (const auto& [g, c] : ngram_counts)
    if (c >= min_ngram_frequency) v.ngrams_.push_back(g);
  v.upos_ = upos;
  v.labels_ = labels;
  std::sort(v.upos_.begin(), v.upos_.end());
  std::sort(v.labels_.begin(), v.labels_.end());
  v.index();
  return v;
}

ParserVocab ParserVocab::for_nmt_vocab(const std::vector<std::string>& tokens, const std::vector<std::string>& upos,
                                       const std::vector<std::string>& labels, bool fold_case) {
  constexpr std::size_t kNmtSpecials = 4;  // <pad> <unk> <s> </s>
  if (tokens.size() < kNmtSpecials) throw std::invalid_argument("parser vocabulary: an NMT vocabulary has at least its 4 special tokens");
  ParserVocab v;
  v.lowercase_ = fold_case;
  v.fold_ngram_case_ = fold_case;
  v.words_ = tokens;
  std::set<std::string> grams;
  for (std::size_t k = kNmtSpecials; k < tokens.size(); ++k)
    for (auto& g : char_ngrams(tokens[k])) grams.insert(std::move(g));
  v.ngrams_ = {"<pad>", "<root>"};
  v.ngrams_.insert(v.ngrams_.end(), grams.begin(), grams.end());
  v.upos_ = upos;
  v.labels_ = labels;
  std::sort(v.upos_.begin(), v.upos_.end());
  std::sort(v.labels_.begin(), v.labels_.end());
  v.index();
  return v;
}

void ParserVocab::index() {
  auto fill = [](const std::vector<std::string>& names, std::unordered_map<std::string, int32_t>& m) {
    m.clear();
    for (std::size_t i = 0; i < names.size(); ++i) m.emplace(names[i], static_cast<int32_t>(i));
  };
  fill(words_, word_index_);
  fill(ngrams_, ngram_index_);
  fill(upos_, upos_index_);
  fill(labels_, label_index_);
}

ParserVocab ParserVocab::from_json(const nlohmann::json& j) {
  ParserVocab v;
  v.words_ = j.at("words").get<std::vector<std::string>>();
  v.ngrams_ = j.at("ngrams").get<std::vector<std::string>>();
  v.upos_ = j.at("upos").get<std::vector<std::string>>();
  v.labels_ = j.at("labels").get<std::vector<std::string>>();
  v.lowercase_ = j.value("lowercase", true);
  v.fold_ngram_case_ = j.value("fold_ngram_case", false);
  v.index();
  return v;
}

nlohmann::json ParserVocab::to_json() const {
  nlohmann::json j = {{"words", words_}, {"ngrams", ngrams_}, {"upos", upos_}, {"labels", labels_}};
  // both absent in the builtin parser's own files: they stay byte-identical
  if (!lowercase_) j["lowercase"] = false;
  if (fold_ngram_case_) j["fold_ngram_case"] = true;
  return j;
}

int32_t ParserVocab::word_id(const std::string& form) const {
  auto it = word_index_.find(lowercase_ ? lowercase(form) : form);
  return it == word_index_.end() ? kUnk : it->second;
}

std::vector<int32_t> ParserVocab::ngram_ids(const std::string& form) const {
  std::vector<int32_t> ids;
  for (const auto& g : char_ngrams(fold_ngram_case_ ? lowercase(form) : form))
    if (auto it = ngram_index_.find(g); it != ngram_index_.end()) ids.push_back(it->second);
  return ids;
}

int32_t ParserVocab::upos_id(const std::string& tag) const {
  auto it = upos_index_.find(tag);
  return it == upos_index_.end() ? -1 : it->second;
}

int32_t ParserVocab::label_id(const std::string& label) const {
  auto it = label_index_.find(label);
  return it == label_index_.end() ? -1 : it->second;
}

}  // namespace synmt::parser
