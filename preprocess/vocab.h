#pragma once
// Token vocabularies: fixed special symbols first, then tokens by descending frequency (ties by
// first occurrence), cut by minimum frequency and maximum size. Saved as "token<TAB>count" lines;
// its sha256 is the identity that datasets and checkpoints record and check.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/special_tokens.h"

namespace synmt {

// A token made only of punctuation or symbols: no letter and no digit once a BPE continuation mark
// "@@" and Moses' XML escapes (&amp; &quot; &apos; &lt; &gt; &#91; &#93; &#124;) are undone.
// SA-NMT's mask_punct_heads keeps such tokens from heading others.
bool is_punctuation_token(const std::string& token);

struct VocabOptions {
  int min_frequency = 1;
  int max_size = 0;  // 0: unlimited (specials included in the count otherwise)
};

class Vocab {
 public:
  static constexpr int32_t kPad = special::kPad, kUnk = special::kUnk, kBos = special::kBos, kEos = special::kEos;
  static const std::vector<std::string>& specials();

  static Vocab build(const std::vector<std::pair<std::string, int64_t>>& counts, const VocabOptions& options);
  static Vocab load(const std::string& path);  // errors name file and line
  void save(const std::string& path) const;

  int32_t id(const std::string& token) const;  // kUnk when unknown
  const std::string& token(int32_t id) const { return tokens_.at(static_cast<std::size_t>(id)); }
  std::size_t size() const { return tokens_.size(); }
  std::string hash() const;  // sha256 of the saved form
  std::vector<int32_t> encode(const std::string& line) const;
  std::string decode(const std::vector<int32_t>& ids) const;  // stops at </s>, skips specials
  // Ids of the tokens that are punctuation (is_punctuation_token), specials excluded.
  std::vector<int32_t> punctuation_ids() const;

 private:
  std::string serialise() const;
  std::vector<std::string> tokens_;
  std::vector<int64_t> counts_;
  std::unordered_map<std::string, int32_t> index_;
};

}  // namespace synmt
