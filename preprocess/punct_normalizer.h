#pragma once
// Moses normalize-punctuation.perl semantics (checked against sacremoses' MosesPunctNormalizer with
// perl_parity=True, i.e. the Perl original where sacremoses deviates: "’" becomes '"' and French
// quotes keep a space). Rules are applied in the script's order with non-overlapping left-to-right
// matching; language-specific rules for quotes before commas and for digit groups.
#include <string>

namespace synmt {

class PunctNormalizer {
 public:
  explicit PunctNormalizer(std::string lang, bool penn = true) : lang_(std::move(lang)), penn_(penn) {}
  std::string normalize(const std::string& line) const;

 private:
  std::string lang_;
  bool penn_;
};

}  // namespace synmt
