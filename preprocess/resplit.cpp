#include "preprocess/resplit.h"

#include <random>
#include <stdexcept>
#include <unordered_map>

namespace synmt {

namespace {
// uniform in [0, n) from a 64-bit generator without modulo bias
uint64_t uniform_below(std::mt19937_64& rng, uint64_t n) {
  const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  uint64_t x;
  do x = rng();
  while (x >= limit);
  return x % n;
}
}  // namespace

void portable_shuffle(std::vector<int64_t>& items, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[uniform_below(rng, i)]);
}

std::vector<SplitPart> assign_split(const std::vector<std::string>& sources, int64_t valid, int64_t test, uint64_t seed,
                                    ResplitCounts* counts) {
  std::unordered_map<std::string, int64_t> id;  // source -> index of its first pair
  std::vector<int64_t> distinct;
  for (size_t i = 0; i < sources.size(); ++i)
    if (id.emplace(sources[i], static_cast<int64_t>(i)).second) distinct.push_back(static_cast<int64_t>(i));
  if (valid < 0 || test < 0 || valid + test >= static_cast<int64_t>(distinct.size()))
    throw std::invalid_argument("valid (" + std::to_string(valid) + ") + test (" + std::to_string(test) +
                                ") must be fewer than the pool's " + std::to_string(distinct.size()) +
                                " distinct source sentences");
  portable_shuffle(distinct, seed);
  // first pair index of a held-out source -> its part
  std::unordered_map<int64_t, SplitPart> heldout;
  for (int64_t k = 0; k < test + valid; ++k) heldout[distinct[k]] = k < test ? SplitPart::test : SplitPart::valid;
  std::vector<SplitPart> parts(sources.size(), SplitPart::train);
  ResplitCounts c;
  c.pairs_in = static_cast<int64_t>(sources.size());
  c.distinct_sources = static_cast<int64_t>(distinct.size());
  for (size_t i = 0; i < sources.size(); ++i) {
    const int64_t first = id.at(sources[i]);
    auto it = heldout.find(first);
    if (it == heldout.end()) {
      ++c.train;
    } else if (first == static_cast<int64_t>(i)) {
      parts[i] = it->second;
      ++(it->second == SplitPart::test ? c.test : c.valid);
    } else {
      parts[i] = SplitPart::dropped;
      ++c.dropped_repeats_of_heldout;
    }
  }
  if (counts) *counts = c;
  return parts;
}

}  // namespace synmt
