#pragma once
// Moses tokenizer.perl / detokenizer.perl semantics (as implemented by sacremoses), per language.
// Each regex step of the Perl script is one function in tokenizer.cpp, applied in the same order with
// the same non-overlapping left-to-right matching, so the exact-match work only deepens the steps.
#include <string>
#include <unordered_set>

namespace synmt {

struct TokenizerOptions {
  std::string lang = "en";
  bool aggressive_dash_splits = false;  // -a
  bool escape = true;                   // XML escaping; -no-escape turns it off
  std::string prefix_dir;               // empty: the directory shipped with synmt
  // tokenizer.perl (Moses master) always splits the period off the last word of a line ("the
  // U.S." -> "the U.S ."); sacremoses keeps non-breaking prefixes there. Perl is the default.
  bool split_final_period = true;
};

class MosesTokenizer {
 public:
  explicit MosesTokenizer(TokenizerOptions options);
  std::string tokenize(const std::string& line) const;

 private:
  std::u32string handle_nonbreaking_prefixes(const std::u32string& text) const;
  TokenizerOptions options_;
  std::unordered_set<std::u32string> prefixes_, numeric_only_prefixes_;
};

class MosesDetokenizer {
 public:
  explicit MosesDetokenizer(std::string lang);
  std::string detokenize(const std::string& line) const;

 private:
  std::string lang_;
};

// Default location of preprocess/data (overridable with the SYNMT_DATA_DIR environment variable).
std::string synmt_data_dir();

}  // namespace synmt
