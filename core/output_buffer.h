#pragma once
// A growable byte buffer that hands out uninitialised space: a per-line tool reserves room for a
// line's worst-case output, writes through a pointer and then sets where it ended. std::string
// can only grow by resize(), which zero-fills: BPE apply reserved four times a line's size per
// line and spent a twentieth of its time in that memset.
#include <cstring>
#include <memory>
#include <string_view>

namespace synmt {

class OutputBuffer {
 public:
  // Room for n more bytes after the content (not initialised); what was written stays.
  char* reserve_more(std::size_t n) {
    if (capacity_ - size_ < n) {
      std::size_t capacity = capacity_ ? capacity_ : 4096;
      while (capacity - size_ < n) capacity *= 2;
      std::unique_ptr<char[]> bigger(new char[capacity]);
      if (size_) std::memcpy(bigger.get(), data_.get(), size_);
      data_ = std::move(bigger);
      capacity_ = capacity;
    }
    return data_.get() + size_;
  }
  // Ends the content at p (within the space reserve_more returned).
  void set_end(const char* p) { size_ = static_cast<std::size_t>(p - data_.get()); }
  void append(std::string_view text) {
    char* p = reserve_more(text.size());
    if (!text.empty()) std::memcpy(p, text.data(), text.size());
    size_ += text.size();
  }
  void push_back(char c) {
    *reserve_more(1) = c;
    ++size_;
  }
  void clear() { size_ = 0; }
  std::size_t size() const { return size_; }
  std::string_view view() const { return std::string_view(data_.get(), size_); }

 private:
  std::unique_ptr<char[]> data_;
  std::size_t size_ = 0, capacity_ = 0;
};

}  // namespace synmt
