#pragma once
// A flat open-addressing hash map from 64-bit keys to 64-bit counts (linear probing, tombstones),
// for BPE learning's pair statistics: copying it is one vector copy and erasing frees nothing,
// where std::unordered_map spent a third of the run allocating and freeing nodes.
#include <cstdint>
#include <utility>
#include <vector>

namespace synmt {

class FlatCountMap {
 public:
  static constexpr uint64_t kEmpty = ~0ULL, kTomb = ~0ULL - 1;  // pair keys never take these values

  FlatCountMap() { slots_.assign(4, {kEmpty, 0}); }  // most per-pair word indices stay tiny
  std::size_t size() const { return size_; }
  // Room for n entries without growing (a table filled from 4 slots rehashes a dozen times).
  void reserve(std::size_t n) {
    std::size_t cap = slots_.size();
    while (n * 10 > cap * 7) cap *= 2;
    if (cap == slots_.size()) return;
    std::vector<std::pair<uint64_t, int64_t>> old(cap, {kEmpty, 0});
    old.swap(slots_);
    size_ = tombs_ = 0;
    for (const auto& s : old)
      if (s.first != kEmpty && s.first != kTomb) (*this)[s.first] = s.second;
  }
  bool empty() const { return size_ == 0; }

  int64_t& operator[](uint64_t key) {
    if ((size_ + tombs_ + 1) * 10 > slots_.size() * 7) grow();
    std::size_t i = index(key), tomb = npos;
    for (;; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i].first == key) return slots_[i].second;
      if (slots_[i].first == kTomb && tomb == npos) tomb = i;
      if (slots_[i].first == kEmpty) break;
    }
    if (tomb != npos) {
      i = tomb;
      --tombs_;
    }
    slots_[i] = {key, 0};
    ++size_;
    return slots_[i].second;
  }
  const int64_t* find(uint64_t key) const {
    for (std::size_t i = index(key);; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i].first == key) return &slots_[i].second;
      if (slots_[i].first == kEmpty) return nullptr;
    }
  }
  // Calls f(key, value) for every entry; entries for which f returns true are erased.
  template <class F>
  void erase_if(F f) {
    for (auto& s : slots_)
      if (s.first != kEmpty && s.first != kTomb && f(s.first, s.second)) {
        s.first = kTomb;
        --size_;
        ++tombs_;
      }
  }
  template <class F>
  void for_each(F f) const {
    for (const auto& s : slots_)
      if (s.first != kEmpty && s.first != kTomb) f(s.first, s.second);
  }

 private:
  static constexpr std::size_t npos = ~std::size_t(0);
  std::size_t index(uint64_t key) const {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return static_cast<std::size_t>(key) & (slots_.size() - 1);
  }
  void grow() {
    std::vector<std::pair<uint64_t, int64_t>> old;
    old.swap(slots_);
    std::size_t cap = old.size();
    if ((size_ + 1) * 10 > cap * 5) cap *= 2;  // else only tombstones are cleared
    slots_.assign(cap, {kEmpty, 0});
    size_ = tombs_ = 0;
    for (const auto& s : old)
      if (s.first != kEmpty && s.first != kTomb) (*this)[s.first] = s.second;
  }
  std::vector<std::pair<uint64_t, int64_t>> slots_;
  std::size_t size_ = 0, tombs_ = 0;
};

}  // namespace synmt
