#pragma once
// A seeded train/valid/test split of one pool of sentence pairs (corpora such as Tatoeba ship as
// one file, often with several translations of one source sentence). The split is by distinct
// source sentence, so that no source of valid or test is ever seen in training: the distinct
// sources are shuffled with the seed, the first `test` go to test, the next `valid` to valid. A
// held-out source keeps its first pair; its other pairs are dropped (not trained on, counted).
#include <cstdint>
#include <string>
#include <vector>

namespace synmt {

struct ResplitCounts {
  int64_t pairs_in = 0, distinct_sources = 0;
  int64_t train = 0, valid = 0, test = 0;
  int64_t dropped_repeats_of_heldout = 0;  // further pairs whose source is in valid or test
};

enum class SplitPart : uint8_t { train, valid, test, dropped };

// The part every pair goes to, in input order. Throws std::invalid_argument when valid + test
// exceed the number of distinct sources (leaving nothing to train on).
std::vector<SplitPart> assign_split(const std::vector<std::string>& sources, int64_t valid, int64_t test, uint64_t seed,
                                    ResplitCounts* counts);

// Fisher-Yates with std::mt19937_64 and rejection sampling: unlike std::shuffle and
// std::uniform_int_distribution (whose algorithms the standard leaves to the library), the same
// seed gives the same order with every compiler and standard library.
void portable_shuffle(std::vector<int64_t>& items, uint64_t seed);

}  // namespace synmt
