#pragma once
// A word -> segmented-form cache for BPE apply: open addressing with 8-byte slots over one byte
// arena, looked up by string_view with its string_hash (core/string_hash.h), which the caller
// computes while it scans for the word's end. C++17's std::unordered_map<std::string, ...> cannot be searched by a string_view (a key
// string was built per word) and scatters its nodes over the heap; on Multi30k it was a third of
// apply's time. Bounded: past max_entries or max_bytes it starts afresh, so memory stays flat on
// corpora with unbounded vocabularies (numbers, URLs).
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "core/string_hash.h"

namespace synmt {

class WordCache {
 public:
  explicit WordCache(std::size_t max_entries = std::size_t(1) << 22, std::size_t max_bytes = std::size_t(1) << 30)
      : max_entries_(max_entries), max_bytes_(max_bytes) {
    reset();
  }

  // The cached value for key (h = hash(key)), or false. The view is valid until the next insert.
  bool find(std::string_view key, uint64_t h, std::string_view& value) const {
    const uint32_t tag = static_cast<uint32_t>(h >> 32);
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.entry == 0) return false;
      if (s.tag == tag && matches(s, key, value)) return true;
    }
  }

  // key (h = hash(key)) must not be cached yet.
  void insert(std::string_view key, uint64_t h, std::string_view value) {
    if (size_ >= max_entries_ || arena_.size() + 8 + key.size() + value.size() > max_bytes_) reset();
    if ((size_ + 1) * 2 > slots_.size()) grow();
    const uint32_t entry = static_cast<uint32_t>(arena_.size() + 1);
    const uint32_t klen = static_cast<uint32_t>(key.size()), vlen = static_cast<uint32_t>(value.size());
    arena_.insert(arena_.end(), reinterpret_cast<const char*>(&klen), reinterpret_cast<const char*>(&klen) + 4);
    arena_.insert(arena_.end(), reinterpret_cast<const char*>(&vlen), reinterpret_cast<const char*>(&vlen) + 4);
    arena_.insert(arena_.end(), key.begin(), key.end());
    arena_.insert(arena_.end(), value.begin(), value.end());
    place(Slot{static_cast<uint32_t>(h >> 32), entry}, h);
    hashes_.push_back(h);
    ++size_;
  }

  std::size_t size() const { return size_; }
  void clear() { reset(); }

  // f(key, hash, value) for every entry, in insertion order.
  template <class F>
  void for_each(F f) const {
    std::size_t k = 0;
    for (std::size_t offset = 0; offset < arena_.size(); ++k) {
      uint32_t klen, vlen;
      std::memcpy(&klen, arena_.data() + offset, 4);
      std::memcpy(&vlen, arena_.data() + offset + 4, 4);
      const char* key = arena_.data() + offset + 8;
      f(std::string_view(key, klen), hashes_[k], std::string_view(key + klen, vlen));
      offset += 8 + klen + vlen;
    }
  }

 private:
  struct Slot {
    uint32_t tag = 0;    // high half of the hash: most mismatches never touch the arena
    uint32_t entry = 0;  // arena offset + 1; 0 = empty
  };
  bool matches(Slot s, std::string_view key, std::string_view& value) const {
    const char* e = arena_.data() + s.entry - 1;
    uint32_t klen, vlen;
    std::memcpy(&klen, e, 4);
    if (klen != key.size() || std::memcmp(e + 8, key.data(), klen) != 0) return false;
    std::memcpy(&vlen, e + 4, 4);
    value = std::string_view(e + 8 + klen, vlen);
    return true;
  }
  void place(Slot s, uint64_t h) {
    std::size_t i = h & mask_;
    while (slots_[i].entry != 0) i = (i + 1) & mask_;
    slots_[i] = s;
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    mask_ = slots_.size() - 1;
    // entries are re-placed by their full hashes (kept in insertion order, as the arena)
    for_each([&](std::string_view key, uint64_t h, std::string_view) {
      const std::size_t offset = static_cast<std::size_t>(key.data() - arena_.data()) - 8;
      place(Slot{static_cast<uint32_t>(h >> 32), static_cast<uint32_t>(offset + 1)}, h);
    });
  }
  void reset() {
    slots_.assign(1024, Slot{});
    mask_ = slots_.size() - 1;
    size_ = 0;
    arena_.clear();
    hashes_.clear();
  }

  std::size_t max_entries_, max_bytes_;
  std::vector<Slot> slots_;
  std::size_t mask_ = 0, size_ = 0;
  std::vector<char> arena_;  // per entry: key length, value length (4 bytes each), key, value
  std::vector<uint64_t> hashes_;
};

}  // namespace synmt
