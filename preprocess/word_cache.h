#pragma once
// A word -> segmented-form cache for BPE apply: open addressing with 8-byte slots over an arena of
// 1 MiB blocks, looked up by string_view with its string_hash (core/string_hash.h), which the caller
// computes while it scans for the word's end. C++17's std::unordered_map<std::string, ...> cannot
// be searched by a string_view (a key string was built per word) and scatters its nodes over the
// heap; on Multi30k it was a third of apply's time. The arena grows by whole blocks: a single
// growing vector was copied at each doubling (a tenth of a first pass over new words). Bounded:
// past max_entries or max_bytes it starts afresh, so memory stays flat on corpora with unbounded
// vocabularies (numbers, URLs).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "core/string_hash.h"

namespace synmt {

class WordCache {
 public:
  // Bytes readable past any key or value (block padding): callers may copy short values with one
  // fixed-size copy of this many bytes.
  static constexpr std::size_t kReadSlack = 32;

  explicit WordCache(std::size_t max_entries = std::size_t(1) << 22, std::size_t max_bytes = std::size_t(1) << 30)
      : max_entries_(max_entries), max_bytes_(max_bytes) {
    reset();
  }

  class Reader;
  // The cached value for key (h = string_hash(key)), or false. The view is valid until reset.
  // first_chunk: the key's first 8 bytes (zero-padded), if the caller has them: keys of up to 8
  // bytes are then compared with one load instead of a memcmp call.
  bool find(std::string_view key, uint64_t h, std::string_view& value, uint64_t first_chunk = 0) const;

  // The table's lookup state copied into a small object for a loop that also writes its output
  // through char pointers: a char store may alias any member, so the compiler reloads the table's
  // pointers and mask after every output write, a local copy it need not (BPE apply 1-2% faster,
  // two interleaved A/Bs of 40 and 60 runs). Valid until the cache is next modified.
  Reader reader() const;

  // key (h = string_hash(key)) must not be cached yet.
  void insert(std::string_view key, uint64_t h, std::string_view value) {
    const std::size_t need = kHeader + key.size() + value.size();
    if (size_ >= max_entries_ || bytes_ + need > max_bytes_) reset();
    if ((size_ + 1) * 2 > slots_.size()) grow();
    if (blocks_.empty() || block_used_ + need > block_size_) {
      if (blocks_.size() + 1 >= kMaxBlocks) reset();
      block_size_ = std::max(kBlockBytes, need);  // an outsized entry gets a block of its own
      // not zeroed (page faults and a memset per block): the bytes read past an entry are masked out
      // or overwritten by the caller
      blocks_.emplace_back(new char[block_size_ + kReadSlack]);  // find() reads 8 key bytes, callers kReadSlack
      if (blocks_.size() == 1) first_block_size_ = block_size_;
      block_used_ = 0;
    }
    char* p = blocks_.back().get() + block_used_;
    const uint32_t klen = static_cast<uint32_t>(key.size()), vlen = static_cast<uint32_t>(value.size());
    std::memcpy(p, &h, 8);
    std::memcpy(p + 8, &klen, 4);
    std::memcpy(p + 12, &vlen, 4);
    std::memcpy(p + kHeader, key.data(), key.size());
    std::memcpy(p + kHeader + key.size(), value.data(), value.size());
    // entry = (block << 20 | offset) + 1: outsized blocks hold one entry at offset 0
    const uint32_t id = static_cast<uint32_t>(((blocks_.size() - 1) << kOffsetBits) | block_used_) + 1;
    place(Slot{static_cast<uint32_t>(h >> 32), id}, h);
    order_.push_back(id);
    block_used_ = need > kBlockBytes ? block_size_ : block_used_ + need;  // an outsized block is full
    bytes_ += need;
    ++size_;
  }

  std::size_t size() const { return size_; }
  void clear() { reset(); }

  // f(key, hash, value) for every entry, in insertion order.
  template <class F>
  void for_each(F f) const {
    for (uint32_t id : order_) {
      const Entry e = entry(id);
      f(e.key, e.hash, e.value);
    }
  }

 private:
  static constexpr std::size_t kHeader = 16;  // hash (8), key length (4), value length (4)
  static constexpr unsigned kOffsetBits = 20;
  static constexpr std::size_t kBlockBytes = std::size_t(1) << kOffsetBits;
  static constexpr std::size_t kMaxBlocks = std::size_t(1) << (32 - kOffsetBits);

  struct Slot {
    uint32_t tag = 0;    // high half of the hash: most mismatches never touch the arena
    uint32_t entry = 0;  // see insert(); 0 = empty
  };
  struct Entry {
    uint64_t hash;
    std::string_view key, value;
  };
  // an entry's bytes: entry ids are (block << 20 | offset) + 1
  static const char* locate(const std::unique_ptr<char[]>* blocks, uint32_t id) {
    const uint32_t e = id - 1;
    return blocks[e >> kOffsetBits].get() + (e & (kBlockBytes - 1));
  }
  Entry entry(uint32_t id) const {
    const char* p = locate(blocks_.data(), id);
    Entry out;
    uint32_t klen, vlen;
    std::memcpy(&out.hash, p, 8);
    std::memcpy(&klen, p + 8, 4);
    std::memcpy(&vlen, p + 12, 4);
    out.key = std::string_view(p + kHeader, klen);
    out.value = std::string_view(p + kHeader + klen, vlen);
    return out;
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
    for (uint32_t id : order_) {
      const uint64_t h = entry(id).hash;
      place(Slot{static_cast<uint32_t>(h >> 32), id}, h);
    }
  }
  void reset() {
    slots_.assign(1024, Slot{});
    mask_ = slots_.size() - 1;
    size_ = bytes_ = 0;
    // the first block is kept (unless outsized: entry ids address 1 MiB): BPE's per-thread caches
    // are cleared after every chunk, and a fresh block's pages fault in again
    if (!blocks_.empty() && first_block_size_ == kBlockBytes) blocks_.resize(1);
    else blocks_.clear();
    block_size_ = blocks_.empty() ? 0 : kBlockBytes;
    block_used_ = 0;
    order_.clear();
  }

  std::size_t max_entries_, max_bytes_;
  std::vector<Slot> slots_;
  std::size_t mask_ = 0, size_ = 0, bytes_ = 0;
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t block_used_ = 0, block_size_ = 0, first_block_size_ = 0;
  std::vector<uint32_t> order_;  // entry ids in insertion order
};

class WordCache::Reader {
 public:
  bool find(std::string_view key, uint64_t h, std::string_view& value, uint64_t first_chunk = 0) const {
    const uint32_t tag = static_cast<uint32_t>(h >> 32);
    const bool short_key = first_chunk != 0 && key.size() <= 8;
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.entry == 0) return false;
      if (s.tag != tag) continue;
      const char* p = locate(blocks_, s.entry);
      uint32_t klen, vlen;
      std::memcpy(&klen, p + 8, 4);
      if (klen != key.size()) continue;
      if (short_key) {
        uint64_t stored;
        std::memcpy(&stored, p + kHeader, 8);  // blocks are padded: 8 bytes are always readable
        if ((stored & (~0ULL >> (64 - 8 * klen))) != first_chunk) continue;
      } else if (!same_bytes(p + kHeader, key.data(), klen)) {
        continue;
      }
      std::memcpy(&vlen, p + 12, 4);
      value = std::string_view(p + kHeader + klen, vlen);
      return true;
    }
  }

 private:
  friend class WordCache;
  // memcmp(a, b, n) == 0 for the n > 8 of the keys find() compares: up to 16 bytes as two
  // overlapping 8-byte loads each (memcmp's call was most of a long word's lookup)
  static bool same_bytes(const char* a, const char* b, std::size_t n) {
    if (n < 8 || n > 16) return std::memcmp(a, b, n) == 0;
    uint64_t a0, a1, b0, b1;
    std::memcpy(&a0, a, 8);
    std::memcpy(&b0, b, 8);
    std::memcpy(&a1, a + n - 8, 8);
    std::memcpy(&b1, b + n - 8, 8);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  Reader(const Slot* slots, std::size_t mask, const std::unique_ptr<char[]>* blocks)
      : slots_(slots), mask_(mask), blocks_(blocks) {}
  const Slot* slots_;
  std::size_t mask_;
  const std::unique_ptr<char[]>* blocks_;
};

inline WordCache::Reader WordCache::reader() const { return Reader(slots_.data(), mask_, blocks_.data()); }

inline bool WordCache::find(std::string_view key, uint64_t h, std::string_view& value, uint64_t first_chunk) const {
  return reader().find(key, h, value, first_chunk);
}

}  // namespace synmt
