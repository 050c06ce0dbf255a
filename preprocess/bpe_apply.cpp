// Applying BPE merges: subword-nmt's apply_bpe.py (glossaries, vocabulary filter, BPE-dropout),
// byte-identical to it (tests/preprocess/check_bpe_vs_subword_nmt.py); learning them is bpe_learn.cpp.
#include "preprocess/bpe.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <random>

#include "core/error.h"
#include "core/line_reader.h"
#include "core/strings.h"
#include "core/utf8.h"
#include "preprocess/flat_map.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "apply_line_to's word scanning reads 8-byte chunks as little-endian"
#endif

namespace synmt {

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
      // the whole field is the count (get-vocab writes non-negative integers; subword-nmt's
      // int(freq) refuses "12abc" too)
      const std::string field = item.substr(sp + 1);
      const long long freq = parse_count(field);
      if (freq < 0) vin.fail("count is not a non-negative integer: '" + field + "'");
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
