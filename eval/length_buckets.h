#pragma once
// BLEU by source-sentence length (synmt-score bleu --buckets-src): sentences grouped by the number
// of whitespace-separated source words into buckets with the given upper bounds (and one above the
// last), each bucket's BLEU from its sentences' summed statistics.
#include <string>
#include <vector>

#include "eval/bleu.h"

namespace synmt::eval {

struct LengthBucket {
  std::string source_words;  // "0-10", "11-20", ..., ">50"
  int sentences = 0;
  double score = 0;          // 0 for an empty bucket
};

// "10,20,30": increasing positive integers; a ConfigError naming `option` otherwise.
std::vector<int> parse_length_bounds(const std::string& spec, const std::string& option);

// src, hyps and refs[r] are parallel (the caller checks the line counts).
std::vector<LengthBucket> bleu_by_source_length(const Bleu& bleu, const std::vector<std::string>& hyps,
                                                const std::vector<std::vector<std::string>>& refs,
                                                const std::vector<std::string>& src, const std::vector<int>& bounds);

}  // namespace synmt::eval
