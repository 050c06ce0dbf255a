// Learning BPE merges: a port of subword-nmt's learn_bpe.py over interned symbol ids, its codes
// byte-identical (tests/preprocess/check_bpe_vs_subword_nmt.py); applying them is bpe_apply.cpp.
#include "preprocess/bpe.h"

#include <algorithm>
#include <unordered_set>

#include "core/strings.h"
#include "core/utf8.h"
#include "preprocess/flat_map.h"

namespace synmt {

void WordCounts::add(const std::string& word, int64_t count) {
  auto it = index_.find(word);  // look up first: emplace would build a node (and copy) every time
  if (it == index_.end()) {
    it = index_.emplace(word, items_.size()).first;
    items_.emplace_back(word, 0);
  }
  items_[it->second].second += count;
}

namespace {
template <class F>
void for_each_space_separated(const std::string& s, std::size_t b, std::size_t e, F f) {
  thread_local std::string word;  // reused: no allocation per word once it has grown
  while (b <= e) {
    std::size_t sp = s.find(' ', b);
    if (sp == std::string::npos || sp > e) sp = e;
    if (sp > b) {
      word.assign(s, b, sp - b);
      f(word);
    }
    b = sp + 1;
  }
}

std::vector<std::string> code_points(const std::string& word) {
  std::vector<std::string> chars;
  for (std::size_t i = 0; i < word.size();) {
    std::size_t start = i;
    utf8::next(word, i);
    chars.push_back(word.substr(start, i - start));
  }
  return chars;
}

// learn_bpe.py's data structures over interned symbol ids
class BpeLearner {
 public:
  BpeLearner(const WordCounts& counts, const BpeLearnOptions& options) : options_(options) {
    std::vector<std::pair<std::vector<int>, int64_t>> vocab;
    for (const auto& [word, count] : counts.items()) {
      auto chars = code_points(word);
      chars.back() += "</w>";
      std::vector<int> ids;
      for (const auto& c : chars) ids.push_back(intern(c));
      vocab.emplace_back(std::move(ids), count);
    }
    // sorted(vocab.items(), key=freq, reverse=True) is stable
    std::stable_sort(vocab.begin(), vocab.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    vocab_ = std::move(vocab);
  }

  std::vector<std::pair<std::string, std::string>> run() {
    std::vector<std::pair<std::string, std::string>> merges;
    int num_symbols = options_.num_symbols;
    for (std::size_t j = 0; j < vocab_.size(); ++j) {
      const auto& w = vocab_[j].first;
      for (std::size_t k = 1; k < w.size(); ++k) {
        add_stat(key(w[k - 1], w[k]), vocab_[j].second);
        indices_[key(w[k - 1], w[k])][j] += 1;
      }
    }
    big_stats_ = stats_;  // a flat copy
    if (options_.total_symbols) {
      std::unordered_set<int> internal, final_;
      for (const auto& [w, f] : vocab_) {
        for (std::size_t k = 0; k + 1 < w.size(); ++k) internal.insert(w[k]);
        final_.insert(w.back());
      }
      num_symbols -= static_cast<int>(internal.size() + final_.size());
    }
    if (stats_.empty()) return merges;
    int64_t max_count = 0;
    stats_.for_each([&](uint64_t, int64_t v) { max_count = std::max(max_count, v); });
    double threshold = static_cast<double>(max_count) / 10.0;
    rebuild_heap();
    for (int i = 0; i < num_symbols; ++i) {
      uint64_t best = 0;
      bool have = !stats_.empty();
      if (have) best = top();
      if (!have || (i && static_cast<double>(stats_[best]) < threshold)) {
        prune(threshold);
        stats_ = big_stats_;
        if (stats_.empty()) break;
        rebuild_heap();
        best = top();
        threshold = static_cast<double>(stats_[best] * i) / (i + 10000.0);
        prune(threshold);
      }
      if (stats_[best] < options_.min_frequency) break;
      int first = static_cast<int>(best >> 32), second = static_cast<int>(best & 0xffffffffu);
      merges.emplace_back(symbols_[first], symbols_[second]);
      auto changes = replace_pair(first, second);
      update_pair_statistics(first, second, changes);
      set_stat(best, 0);
      if (i % 100 == 0) prune(threshold);
    }
    return merges;
  }

 private:
  struct Change {
    int word;
    std::vector<int> new_word, old_word;
    int64_t freq;
  };
  struct HeapEntry {
    int64_t count;
    uint64_t pair;
  };

  static uint64_t key(int a, int b) { return (static_cast<uint64_t>(a) << 32) | static_cast<uint32_t>(b); }

  int intern(const std::string& s) {
    auto [it, inserted] = symbol_ids_.emplace(s, static_cast<int>(symbols_.size()));
    if (inserted) symbols_.push_back(s);
    return it->second;
  }

  // max by (count, (first, second)) as Python compares the tuples
  bool less(const HeapEntry& a, const HeapEntry& b) const {
    if (a.count != b.count) return a.count < b.count;
    const std::string& a1 = symbols_[a.pair >> 32];
    const std::string& b1 = symbols_[b.pair >> 32];
    if (a1 != b1) return a1 < b1;
    return symbols_[a.pair & 0xffffffffu] < symbols_[b.pair & 0xffffffffu];
  }

  void push(uint64_t pair, int64_t count) {
    heap_.push_back({count, pair});
    std::push_heap(heap_.begin(), heap_.end(), [this](const HeapEntry& a, const HeapEntry& b) { return less(a, b); });
  }
  void rebuild_heap() {
    heap_active_ = true;
    heap_.clear();
    stats_.for_each([this](uint64_t k, int64_t v) { heap_.push_back({v, k}); });
    std::make_heap(heap_.begin(), heap_.end(), [this](const HeapEntry& a, const HeapEntry& b) { return less(a, b); });
  }
  // Lazy max-heap: a count that grows gets a new entry; one that shrinks keeps its old, too-high
  // entry, corrected here when it reaches the top (re-pushed with the current count). Every pair
  // thus has an entry at or above its current (count, pair), so the first entry that matches its
  // pair's count is the maximum. Pushing on every decrease as well (the first version) grew the
  // heap to millions of stale entries whose sift-downs were an eighth of learning.
  uint64_t top() {
    auto cmp = [this](const HeapEntry& a, const HeapEntry& b) { return less(a, b); };
    for (;;) {
      const HeapEntry e = heap_.front();
      const int64_t* current = stats_.find(e.pair);
      if (current != nullptr && *current == e.count) return e.pair;
      std::pop_heap(heap_.begin(), heap_.end(), cmp);
      heap_.pop_back();
      if (current != nullptr && *current < e.count && *current > 0) push(e.pair, *current);
      if (heap_.empty()) rebuild_heap();  // only entries for pairs at 0 or pruned were left
      if (heap_.empty()) return e.pair;   // nothing left at all: the caller sees a zero count
    }
  }
  void add_stat(uint64_t pair, int64_t delta) {
    int64_t& v = stats_[pair];
    v += delta;
    if (heap_active_ && delta > 0) push(pair, v);
  }
  void set_stat(uint64_t pair, int64_t value) {
    int64_t& v = stats_[pair];
    const bool grows = value > v;
    v = value;
    if (grows) push(pair, value);
  }

  void prune(double threshold) {
    stats_.erase_if([&](uint64_t key, int64_t value) {
      if (static_cast<double>(value) >= threshold) return false;
      if (value < 0) big_stats_[key] += value;
      else big_stats_[key] = value;
      return true;
    });
  }

  std::vector<Change> replace_pair(int first, int second) {
    std::vector<Change> changes;
    const int merged = intern(symbols_[first] + symbols_[second]);
    std::vector<uint64_t> words;
    indices_[key(first, second)].for_each([&](uint64_t j, int64_t count) {
      if (count >= 1) words.push_back(j);
    });
    for (uint64_t j : words) {
      const std::vector<int>& word = vocab_[j].first;
      std::vector<int> out;
      out.reserve(word.size());
      for (std::size_t k = 0; k < word.size(); ++k) {
        if (k + 1 < word.size() && word[k] == first && word[k + 1] == second) {
          out.push_back(merged);
          ++k;
        } else {
          out.push_back(word[k]);
        }
      }
      const int64_t freq = vocab_[j].second;
      std::vector<int> old = std::move(vocab_[j].first);  // the word is replaced: move, do not copy
      vocab_[j].first = out;
      changes.push_back({static_cast<int>(j), std::move(out), std::move(old), freq});
    }
    return changes;
  }

  void update_pair_statistics(int first, int second, const std::vector<Change>& changes) {
    const uint64_t pair = key(first, second);
    set_stat(pair, 0);
    indices_[pair] = FlatCountMap();
    const int new_pair = intern(symbols_[first] + symbols_[second]);
    for (const Change& c : changes) {
      const auto& old_word = c.old_word;
      const int64_t freq = c.freq;
      const std::size_t n = old_word.size();
      for (std::size_t i = 0; i < n;) {
        auto found = std::find(old_word.begin() + static_cast<std::ptrdiff_t>(i), old_word.end(), first);
        if (found == old_word.end()) break;
        i = static_cast<std::size_t>(found - old_word.begin());
        if (i < n - 1 && old_word[i + 1] == second) {
          if (i) {
            uint64_t prev = key(old_word[i - 1], old_word[i]);
            add_stat(prev, -freq);
            indices_[prev][static_cast<uint64_t>(c.word)] -= 1;
          }
          if (i < n - 2) {
            if (old_word[i + 2] != first || i >= n - 3 || old_word[i + 3] != second) {
              uint64_t nex = key(old_word[i + 1], old_word[i + 2]);
              add_stat(nex, -freq);
              indices_[nex][static_cast<uint64_t>(c.word)] -= 1;
            }
          }
          i += 2;
        } else {
          i += 1;
        }
      }
      const auto& word = c.new_word;
      const std::size_t m = word.size();
      for (std::size_t i = 0; i < m;) {
        auto found = std::find(word.begin() + static_cast<std::ptrdiff_t>(i), word.end(), new_pair);
        if (found == word.end()) break;
        i = static_cast<std::size_t>(found - word.begin());
        if (i) {
          uint64_t prev = key(word[i - 1], word[i]);
          add_stat(prev, freq);
          indices_[prev][static_cast<uint64_t>(c.word)] += 1;
        }
        if (i < m - 1 && word[i + 1] != new_pair) {
          uint64_t nex = key(word[i], word[i + 1]);
          add_stat(nex, freq);
          indices_[nex][static_cast<uint64_t>(c.word)] += 1;
        }
        i += 1;
      }
    }
  }

  BpeLearnOptions options_;
  std::vector<std::string> symbols_;
  std::unordered_map<std::string, int> symbol_ids_;
  std::vector<std::pair<std::vector<int>, int64_t>> vocab_;
  FlatCountMap stats_, big_stats_;
  std::unordered_map<uint64_t, FlatCountMap> indices_;  // pair -> (word index -> occurrences)
  std::vector<HeapEntry> heap_;
  bool heap_active_ = false;  // off while the initial statistics are counted
};
}  // namespace

std::vector<std::pair<std::string, int64_t>> vocabulary_by_frequency(const WordCounts& counts) {
  auto items = counts.items();
  std::stable_sort(items.begin(), items.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return items;
}

void WordCounts::add_line(const std::string& line) {
  auto [b, e] = strip_crlf_space(line);
  if (b >= e) return;
  for_each_space_separated(line, b, e, [this](const std::string& word) { add(word, 1); });
}

std::vector<std::pair<std::string, std::string>> learn_bpe(const WordCounts& counts, const BpeLearnOptions& options) {
  return BpeLearner(counts, options).run();
}

}  // namespace synmt
