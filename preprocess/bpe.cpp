#include "preprocess/bpe.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <queue>
#include <random>
#include <unordered_set>

#include "core/error.h"
#include "core/line_reader.h"
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
// Python's str.strip(chars) for the characters "\r\n ".
std::pair<std::size_t, std::size_t> strip_crlf_space(std::string_view s) {
  std::size_t b = 0, e = s.size();
  auto ws = [](char c) { return c == '\r' || c == '\n' || c == ' '; };
  while (b < e && ws(s[b])) ++b;
  while (e > b && ws(s[e - 1])) --e;
  return {b, e};
}

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

// ---- learn: a port of learn_bpe.py's data structures over interned symbol ids -------------------
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

// ---- apply ---------------------------------------------------------------------------------------
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "apply_line_to's word scanning reads 8-byte chunks as little-endian"
#endif

namespace {
// A code point's UTF-8 bytes (at most 4) with its length, and whether "</w>" follows it: the key of a
// single-character unit. Never one of FlatCountMap's two reserved values.
uint64_t char_key(std::string_view cp, bool final) {
  uint64_t k = 0;
  std::memcpy(&k, cp.data(), cp.size());
  return k | (uint64_t(cp.size()) << 32) | (uint64_t(final) << 36);
}

std::atomic<uint64_t> next_codes_instance{1};
}  // namespace

int32_t BpeCodes::unit_id(std::string_view unit) {
  const uint64_t h = string_hash(unit);
  std::string_view known;
  int32_t id = static_cast<int32_t>(unit_size_.size());
  if (unit_ids_.find(unit, h, known)) {
    std::memcpy(&id, known.data(), sizeof id);
    return id;
  }
  unit_ids_.insert(unit, h, std::string_view(reinterpret_cast<const char*>(&id), sizeof id));
  unit_form_at_.push_back(static_cast<uint32_t>(unit_forms_.size()));
  unit_size_.push_back(static_cast<uint32_t>(unit.size()));
  unit_forms_.append(unit).append(options_.separator).push_back(' ');
  // single code points (with or without "</w>") are found by char_key when words are split up
  std::string_view body(unit);
  const bool final = body.size() >= 4 && body.substr(body.size() - 4) == "</w>";
  if (final) body.remove_suffix(4);
  std::size_t pos = 0;
  if (!body.empty() && utf8::is_valid(body)) {
    utf8::next(body, pos);
    if (pos == body.size()) char_ids_[char_key(body, final)] = id;
  }
  return id;
}

BpeCodes::BpeCodes(const std::string& path, BpeApplyOptions options)
    : options_(std::move(options)), instance_(next_codes_instance++) {
  LineReaderOptions ro;
  ro.strip_cr = false;
  // read at every start of apply (a tenth of a short job's time): the file in one buffer, views
  // into it, no string per line or unit
  std::deque<std::string> texts;  // a deque: the views stay valid as it grows
  std::vector<std::string_view> lines;
  {
    LineReader in(path, ro);
    std::vector<std::string_view> part;
    while (in.next_lines(texts.emplace_back(), part, std::size_t(1) << 20)) lines.insert(lines.end(), part.begin(), part.end());
  }
  std::size_t first = 0;
  if (!lines.empty() && lines[0].substr(0, 9) == "#version:") {
    std::string v(lines[0].substr(lines[0].find_last_of(' ') + 1));
    while (v.size() > 2 && v.compare(v.size() - 2, 2, ".0") == 0) v.resize(v.size() - 2);
    if (v == "0.2") version_ = 2;
    else if (v == "0.1") version_ = 1;
    else throw InputError(path, 1, "unsupported BPE codes version '" + v + "'");
    first = 1;
  } else {
    version_ = 1;
  }
  // codes.read().rstrip('\n').split('\n'): trailing empty lines are dropped, inner ones are errors
  while (lines.size() > first && lines.back().empty()) lines.pop_back();
  if (lines.size() == first) throw InputError(path, first + 1, "no BPE merge operations in codes file");
  pairs_.reserve(lines.size() - first);
  unit_forms_.reserve(lines.size() * 2 * (8 + options_.separator.size()));
  std::string merged;
  for (std::size_t n = first; n < lines.size(); ++n) {
    int rank = static_cast<int>(n - first);
    if (options_.merges >= 0 && rank >= options_.merges) break;
    auto [b, e] = strip_crlf_space(lines[n]);
    const std::string_view item = lines[n].substr(b, e - b);
    const std::size_t sp = item.find(' ');
    if (sp == std::string::npos || sp == 0 || item.find(' ', sp + 1) != std::string::npos || sp + 1 == item.size())
      throw InputError(path, n + 1, "invalid BPE codes line (expected exactly two subword units separated by a space): '" +
                                        std::string(item) + "'");
    const std::string_view left = item.substr(0, sp), right = item.substr(sp + 1);
    merged.assign(left).append(right);
    const uint64_t key = pair_key(unit_id(left), unit_id(right));
    // the first occurrence of a pair keeps its rank, as in subword-nmt's dict construction
    if (!pairs_.find(key)) pairs_[key] = static_cast<int64_t>((uint64_t(rank) << 32) | uint32_t(unit_id(merged)));
    // merged string -> pair, for splitting segments missing from a vocabulary back;
    // subword-nmt's dict ends up with the lowest-ranked pair per string
    if (!options_.vocabulary.empty()) reverse_.emplace(merged, std::make_pair(std::string(left), std::string(right)));
  }
  end_of_word_ = unit_id("</w>");  // version 0.1 codes append it as a unit of its own
  unit_ids_.clear();  // units are interned only here
  unit_forms_.append(kCopySlack, '\0');  // fixed-size copies of short forms read past the last one
  for (int c = 0; c < 128; ++c)
    for (int final = 0; final < 2; ++final) {
      const int64_t* id = char_ids_.find(char_key(std::string_view(reinterpret_cast<const char*>(&c), 1), final != 0));
      ascii_ids_[c][final] = id ? static_cast<int32_t>(*id) : -1;
    }
  if (!options_.vocabulary.empty()) {
    LineReader vin(options_.vocabulary, ro);
    std::string vline;
    while (vin.next(vline)) {
      auto [vb, ve] = strip_crlf_space(vline);
      std::string item = vline.substr(vb, ve - vb);
      std::size_t sp = item.find(' ');
      if (sp == std::string::npos || item.find(' ', sp + 1) != std::string::npos) vin.fail("expected 'word count'");
      long long freq = 0;
      try {
        freq = std::stoll(item.substr(sp + 1));
      } catch (const std::exception&) {
        vin.fail("count is not an integer");
      }
      if (options_.vocabulary_threshold < 0 || freq >= options_.vocabulary_threshold) vocab_.insert(item.substr(0, sp));
    }
  }
  if (!options_.glossaries.empty()) {
    std::string alternation;
    for (const auto& g : options_.glossaries) {
      try {
        glossary_res_.emplace_back(g, std::regex::ECMAScript);
      } catch (const std::regex_error& e) {
        throw InputError("--glossaries", 0, "invalid regular expression '" + g + "': " + e.what());
      }
      alternation += (alternation.empty() ? "" : "|") + g;
    }
    glossary_full_ = std::make_unique<std::regex>("^(" + alternation + ")$", std::regex::ECMAScript);
  }
}

// subword-nmt's isolate_glossary for every glossary in turn: '1934USABUSA' with 'USA' becomes
// ['1934', 'USA', 'B', 'USA'].
std::vector<std::string> BpeCodes::isolate_glossaries(const std::string& word) const {
  std::vector<std::string> segments{word};
  for (const auto& re : glossary_res_) {
    std::vector<std::string> next;
    for (const auto& seg : segments) {
      if (std::regex_match(seg, re) || !std::regex_search(seg, re)) {
        next.push_back(seg);
        continue;
      }
      // re.split with a capturing group: pieces between matches and the matches, empty ones dropped
      std::vector<std::string> parts;
      auto begin = std::sregex_iterator(seg.begin(), seg.end(), re);
      std::size_t last = 0;
      for (auto it = begin; it != std::sregex_iterator(); ++it) {
        parts.push_back(seg.substr(last, static_cast<std::size_t>(it->position()) - last));
        parts.push_back(it->str());
        last = static_cast<std::size_t>(it->position() + it->length());
      }
      std::string ending = seg.substr(last);
      for (const auto& p : parts)
        if (!p.empty()) next.push_back(p);
      if (!ending.empty()) {
        auto [b, e] = strip_crlf_space(ending);
        next.push_back(ending.substr(b, e - b));
      }
    }
    segments = std::move(next);
  }
  return segments;
}

std::vector<std::string> BpeCodes::recursive_split(const std::string& segment, bool final) const {
  auto it = reverse_.find(final ? segment + "</w>" : segment);
  if (it == reverse_.end()) return {segment};
  std::string left = it->second.first, right = it->second.second;
  if (final) right = right.substr(0, right.size() >= 4 ? right.size() - 4 : 0);
  std::vector<std::string> out;
  const std::string& sep = options_.separator;
  if (vocab_.count(left + sep)) {
    out.push_back(left);
  } else {
    for (auto& s : recursive_split(left, false)) out.push_back(std::move(s));
  }
  if ((final && vocab_.count(right)) || (!final && vocab_.count(right + sep))) {
    out.push_back(right);
  } else {
    for (auto& s : recursive_split(right, final)) out.push_back(std::move(s));
  }
  return out;
}

std::vector<std::string> BpeCodes::check_vocab_and_split(const std::vector<std::string>& word) const {
  std::vector<std::string> out;
  const std::string& sep = options_.separator;
  for (std::size_t k = 0; k + 1 < word.size(); ++k) {
    if (vocab_.count(word[k] + sep)) out.push_back(word[k]);
    else for (auto& s : recursive_split(word[k], false)) out.push_back(std::move(s));
  }
  const std::string& last = word.back();
  if (vocab_.count(last)) out.push_back(last);
  else for (auto& s : recursive_split(last, true)) out.push_back(std::move(s));
  return out;
}

namespace {
constexpr uint64_t kNoMerge = ~uint64_t(0);
}  // namespace

// apply_bpe.py's loop as written: every round looks up all adjacent pairs, and BPE-dropout draws
// once per known pair in left-to-right order (the draws must happen in that order).
void BpeCodes::merge_with_dropout(std::vector<int32_t>& ids) const {
  thread_local std::mt19937_64 rng(options_.seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  while (ids.size() > 1) {
    uint64_t best = kNoMerge;  // (rank << 32) | merged id
    std::size_t best_pos = 0;
    for (std::size_t i = 0; i + 1 < ids.size(); ++i) {
      const int64_t* merge = pairs_.find(pair_key(ids[i], ids[i + 1]));
      if (!merge || !(uniform(rng) > options_.dropout)) continue;
      if (static_cast<uint64_t>(*merge) < best) {  // ranks are unique: the lowest wins
        best = static_cast<uint64_t>(*merge);
        best_pos = i;
      }
    }
    if (best == kNoMerge) break;
    const int32_t a = ids[best_pos], b = ids[best_pos + 1], merged = static_cast<int32_t>(best & 0xffffffffu);
    std::size_t out = 0;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (i + 1 < ids.size() && ids[i] == a && ids[i + 1] == b) {
        ids[out++] = merged;
        ++i;
      } else {
        ids[out++] = ids[i];
      }
    }
    ids.resize(out);
  }
}

// The same merges without dropout, keeping each adjacent pair's (rank, merged id) between rounds:
// only pairs touching a merge are looked up again (half the lookups on typical words), and each
// round rewrites the word in place from the leftmost occurrence of the chosen pair (the first
// minimum), where an untouched neighbour pair keeps its old entry.
void BpeCodes::merge_greedily(std::vector<int32_t>& ids) const {
  auto lookup = [this](int32_t left, int32_t right) {
    const int64_t* merge = pairs_.find(pair_key(left, right));
    return merge ? static_cast<uint64_t>(*merge) : kNoMerge;
  };
  thread_local std::vector<uint64_t> pair_merge;
  pair_merge.resize(ids.size());
  uint64_t* pm = pair_merge.data();
  int32_t* w = ids.data();
  std::size_t n = ids.size();
  for (std::size_t i = 0; i + 1 < n; ++i) pm[i] = lookup(w[i], w[i + 1]);
  while (n > 1) {
    // the first minimum, without a branch per pair (which went either way on new words)
    std::size_t best = 0;
    uint64_t chosen = pm[0];
    for (std::size_t i = 1; i + 1 < n; ++i) {
      const bool lower = pm[i] < chosen;
      best = lower ? i : best;
      chosen = lower ? pm[i] : chosen;
    }
    if (chosen == kNoMerge) break;
    const int32_t a = w[best], b = w[best + 1], merged = static_cast<int32_t>(chosen & 0xffffffffu);
    std::size_t out = best, prev_source = 0;
    bool prev_fresh = false;
    for (std::size_t i = best; i < n;) {  // out <= i: nothing unread is overwritten
      const std::size_t source = i;
      bool fresh;
      if (i + 1 < n && w[i] == a && w[i + 1] == b) {
        w[out] = merged;
        fresh = true;
        i += 2;
      } else {
        w[out] = w[i];
        fresh = false;
        i += 1;
      }
      // pm[prev_source] is not yet overwritten: writes so far reach out - 2 < prev_source
      if (out > 0) pm[out - 1] = (fresh || prev_fresh) ? lookup(w[out - 1], w[out]) : pm[prev_source];
      prev_source = source;
      prev_fresh = fresh;
      ++out;
    }
    n = out;
  }
  ids.resize(n);
}

// The merged unit ids of a word (glossaries and vocabulary aside); false for a single code point,
// which stays as it is. Units absent from the codes get ids past the known ones, their text in `unknown`.
bool BpeCodes::merge_word(std::string_view orig, std::vector<int32_t>& ids, std::vector<std::string>& unknown) const {
  ids.clear();
  unknown.clear();
  auto symbol = [&](std::string_view text, bool final) {
    const int64_t* known = char_ids_.find(char_key(text, final));
    if (known) return static_cast<int32_t>(*known);
    unknown.emplace_back(text);
    if (final) unknown.back() += "</w>";
    return static_cast<int32_t>(unit_size_.size() + unknown.size() - 1);
  };
  for (std::size_t i = 0; i < orig.size();) {
    const auto c = static_cast<unsigned char>(orig[i]);
    const bool final = version_ == 2 && i + 1 == orig.size();
    if (c < 0x80 && ascii_ids_[c][final] >= 0) {  // most characters: a table instead of a hash probe
      ids.push_back(ascii_ids_[c][final]);
      ++i;
      continue;
    }
    const std::size_t start = i;
    const std::size_t len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;  // valid UTF-8 (checked on input)
    i = std::min(orig.size(), i + len);
    ids.push_back(symbol(orig.substr(start, i - start), version_ == 2 && i == orig.size()));
  }
  if (ids.size() == 1) return false;
  if (version_ == 1) ids.push_back(end_of_word_);
  if (options_.dropout > 0) {
    merge_with_dropout(ids);
  } else {
    merge_greedily(ids);
  }
  return true;
}

std::vector<std::string> BpeCodes::segment_word(const std::string& orig) const {
  if (glossary_full_ && std::regex_match(orig, *glossary_full_)) return {orig};
  thread_local std::vector<int32_t> ids;
  thread_local std::vector<std::string> unknown;
  if (!merge_word(orig, ids, unknown)) return {orig};
  std::vector<std::string> word;
  word.reserve(ids.size());
  for (int32_t id : ids)
    word.emplace_back(static_cast<std::size_t>(id) < unit_size_.size() ? unit(id) : unknown[id - unit_size_.size()]);
  if (word.back() == "</w>") word.pop_back();
  else if (word.back().size() >= 4 && word.back().compare(word.back().size() - 4, 4, "</w>") == 0)
    word.back().resize(word.back().size() - 4);
  if (!vocab_.empty()) return check_vocab_and_split(word);
  return word;
}

namespace {
// Copies text to o; returns the end of the copy.
inline char* put(char* o, std::string_view text) {
  std::memcpy(o, text.data(), text.size());
  return o + text.size();
}

// A word of a line with its string_hash and first 8 bytes (zero-padded).
struct ScannedWord {
  std::size_t begin = 0, end = 0;
  uint64_t hash = 0, first_chunk = 0;
};

// The next word of line[p, e) (words are separated by single spaces; the empty words between double
// spaces are skipped), or false. One pass finds the word's end and hashes it, 8 bytes at a time: a
// space is found in a chunk by the classic has-zero-byte test on chunk ^ "        "; the lowest
// flagged byte is always exact, and the chunk's bytes before it are the word's.
inline bool scan_word(std::string_view line, std::size_t p, std::size_t e, ScannedWord& word) {
  for (; p < e; ++p) {
    uint64_t h = kStringHashStart, first_chunk = 0;
    std::size_t sp = p;
    for (;;) {
      const std::size_t avail = e - sp;
      if (avail == 0) break;  // the word ends the line after a full chunk
      uint64_t w;
      if (avail >= 8) std::memcpy(&w, line.data() + sp, 8);
      else w = load_short(line.data() + sp, avail);  // the line's end
      const uint64_t x = w ^ 0x2020202020202020ULL;
      const uint64_t spaces = (x - 0x0101010101010101ULL) & ~x & 0x8080808080808080ULL;
      std::size_t n = spaces ? static_cast<std::size_t>(__builtin_ctzll(spaces)) / 8 : 8;
      if (n > avail) n = avail;
      if (n == 8) {
        if (sp == p) first_chunk = w;
        h = string_hash_chunk(h, w);
        sp += 8;
        continue;
      }
      if (n > 0) {
        w &= ~0ULL >> (64 - 8 * n);
        if (sp == p) first_chunk = w;
        h = string_hash_chunk(h, w);
      }
      sp += n;
      break;
    }
    if (sp > p) {
      word = ScannedWord{p, sp, string_hash_finish(h, sp - p), first_chunk};
      return true;
    }
    p = sp;  // an empty word: the loop steps over its space
  }
  return false;
}
}  // namespace

char* BpeCodes::write_segmented(std::string_view word, char* o) const {
  if (glossary_res_.empty() && vocab_.empty()) {
    // the common case straight from the unit ids: each unit's output form copied whole (short
    // forms with one fixed-size copy: the output has kCopySlack bytes of room past any word)
    thread_local std::vector<int32_t> ids;
    thread_local std::vector<std::string> unknown;
    if (!merge_word(word, ids, unknown)) return put(o, word);
    const std::size_t sep = options_.separator.size() + 1;  // "@@ "
    for (std::size_t k = 0; k < ids.size(); ++k) {
      const std::size_t id = static_cast<std::size_t>(ids[k]);
      std::string_view unit;
      if (id < unit_size_.size()) {
        const char* form = unit_forms_.data() + unit_form_at_[id];
        const std::size_t size = unit_size_[id];
        if (k + 1 < ids.size()) {  // a middle unit: its form with the separator
          if (size + sep <= kCopySlack / 2) std::memcpy(o, form, kCopySlack / 2);
          else std::memcpy(o, form, size + sep);
          o += size + sep;
          continue;
        }
        unit = std::string_view(form, size);
      } else {
        unit = unknown[id - unit_size_.size()];
      }
      if (k + 1 < ids.size()) {  // a unit absent from the codes
        o = put(o, unit);
        o = put(o, options_.separator);
        *o++ = ' ';
        continue;
      }
      // the last unit carries the end-of-word mark (or is it)
      if (unit == "</w>") {
        if (k > 0) o -= sep;
        break;
      }
      if (unit.size() >= 4 && unit.substr(unit.size() - 4) == "</w>") unit.remove_suffix(4);
      o = put(o, unit);
    }
    return o;
  }
  std::vector<std::string> pieces;
  if (glossary_res_.empty()) {
    pieces = segment_word(std::string(word));
  } else {
    for (const auto& segment : isolate_glossaries(std::string(word)))
      for (auto& p : segment_word(segment)) pieces.push_back(std::move(p));
  }
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    if (k) *o++ = ' ';
    o = put(o, pieces[k]);
    if (k + 1 < pieces.size()) o = put(o, options_.separator);
  }
  return o;
}

void BpeCodes::apply_line_to(std::string_view line, OutputBuffer& out) const {
  // subword-nmt caches per word type too; here the caches hold the finished output form
  WordCache* cache = options_.dropout > 0 ? nullptr : &thread_cache();  // dropout: never cached
  std::size_t b = 0, e = line.size();
  auto ws = [](char c) { return c == '\r' || c == '\n' || c == ' '; };
  while (b < e && ws(line[b])) ++b;
  while (e > b && ws(line[e - 1])) --e;
  // The line's output is written through a pointer into space reserved for the worst case (every
  // character its own unit: sep + 2 bytes per input byte) plus slack, so that cached forms of up to
  // 32 bytes are copied with one fixed-size copy: the appends' calls were a tenth of apply's time.
  // (o is a local whose address is never taken, and the shared cache is read through a local
  // Reader: stores through o may alias anything else, which the compiler then reloads.)
  char* o = out.reserve_more(line.size() * (options_.separator.size() + 2) + kCopySlack);
  o = put(o, line.substr(0, b));
  const WordCache::Reader shared = shared_cache_.reader();
  bool first_word = true;
  ScannedWord scanned;
  for (std::size_t p = b; scan_word(line, p, e, scanned); p = scanned.end + 1) {
    if (!first_word) *o++ = ' ';
    first_word = false;
    std::string_view word = line.substr(scanned.begin, scanned.end - scanned.begin), hit;
    if (!cache) {
      o = write_segmented(word, o);
    } else if (shared.find(word, scanned.hash, hit, scanned.first_chunk) ||
               cache->find(word, scanned.hash, hit, scanned.first_chunk)) {
      if (hit.size() <= kCopySlack / 2) {
        std::memcpy(o, hit.data(), kCopySlack / 2);  // cache entries are followed by readable bytes
        o += hit.size();
      } else {
        o = put(o, hit);
      }
    } else {
      char* const start = o;
      o = write_segmented(word, o);
      cache->insert(word, scanned.hash, std::string_view(start, static_cast<std::size_t>(o - start)));
    }
  }
  if (e < line.size() && b < e) o = put(o, line.substr(e));
  out.set_end(o);
}

WordCache& BpeCodes::thread_cache() const {
  // keyed by an instance number, not the address: an address can be reused by a later object;
  // the last one used is remembered (this runs once per line)
  thread_local uint64_t last_instance = 0;
  thread_local WordCache* last = nullptr;
  if (last_instance == instance_) return *last;
  thread_local std::unordered_map<uint64_t, WordCache*> mine;
  WordCache*& cache = mine[instance_];
  if (cache == nullptr) {
    std::lock_guard<std::mutex> lock(thread_caches_mutex_);
    thread_caches_.push_back(std::make_unique<WordCache>());
    cache = thread_caches_.back().get();
  }
  last_instance = instance_;
  last = cache;
  return *cache;
}

void BpeCodes::share_cached_words() {
  std::lock_guard<std::mutex> lock(thread_caches_mutex_);
  for (auto& cache : thread_caches_) {
    cache->for_each([this](std::string_view word, uint64_t h, std::string_view segmented) {
      std::string_view known;
      if (!shared_cache_.find(word, h, known)) shared_cache_.insert(word, h, segmented);
    });
    cache->clear();
  }
}

std::string BpeCodes::apply_line(const std::string& line) const {
  OutputBuffer out;
  apply_line_to(line, out);
  return std::string(out.view());
}

std::string remove_bpe(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 3, "@@ ") == 0) {
      i += 2;
      continue;
    }
    out.push_back(s[i]);
  }
  if (out.size() >= 2 && out.compare(out.size() - 2, 2, "@@") == 0) out.resize(out.size() - 2);
  return out;
}

}  // namespace synmt
