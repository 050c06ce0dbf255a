#pragma once
// Language identification with the semantics of Python langdetect 1.0.9 (Shuyo's
// language-detection): character 1-3-gram naive Bayes over the JSON profiles that Debian's
// python3-langdetect ships, its text normalisation (URL/e-mail removal, Vietnamese and CJK
// normalisation, Latin removal from non-Latin text, capital-word skipping), 7 random-restart
// trials with alpha smoothing, and Python's own random number generator (MT19937 seeded as
// random.seed(n), random.choice, random.gauss), so that a fixed --seed gives Python's answers.
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace synmt {

struct LangidOptions {
  std::string profiles;  // directory of JSON profiles; empty: python3-langdetect's
  int64_t seed = 0;      // DetectorFactory.seed (Pascal used 0); < 0: nondeterministic
  double alpha = 0.5;
  int trials = 7;
  int max_text_length = 10000;
};

struct LangGuess {
  std::string lang = "unknown";  // "unknown": no feature or no language above 0.1
  double prob = 0;
};

class LanguageIdentifier {
 public:
  explicit LanguageIdentifier(LangidOptions options);  // throws InputError for a bad profile directory
  ~LanguageIdentifier();
  // Languages above the 0.1 threshold, most probable first (langdetect's get_probabilities()).
  std::vector<LangGuess> probabilities(const std::string& utf8_text) const;
  LangGuess detect(const std::string& utf8_text) const;
  const std::vector<std::string>& languages() const { return langs_; }

 private:
  std::u32string normalise_text(const std::u32string& text) const;
  char32_t normalise_char(char32_t c) const;
  LangidOptions options_;
  std::vector<std::string> langs_;
  std::unordered_map<std::u32string, std::size_t> ngram_row_;  // n-gram -> row of probs_
  std::vector<double> probs_;                                  // rows x langs
  std::unordered_map<char32_t, char32_t> cjk_map_;
  std::u32string vi_alphabet_, vi_marks_;
  std::vector<std::u32string> vi_normalised_;  // per diacritic mark
  std::u32string latin1_excluded_;
};

std::string default_langdetect_profiles();

}  // namespace synmt
