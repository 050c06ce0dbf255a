#include "preprocess/langid.h"

#include <dirent.h>
#include <unicode/uchar.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/line_reader.h"
#include "core/utf8.h"

namespace synmt {
namespace {

// Python's random.Random: MT19937 (Matsumoto & Nishimura's reference algorithm) seeded by
// init_by_array with the seed's 32-bit words, random() from two draws, choice() by rejection
// sampling of getrandbits(bit_length(n)), gauss() with its cached second value. Hand-written
// because the C++ library's engines seed differently and nothing else reproduces Python's draws.
class PythonRandom {
 public:
  explicit PythonRandom(int64_t seed) {
    uint64_t n = static_cast<uint64_t>(seed < 0 ? -seed : seed);
    std::vector<uint32_t> key;
    do {
      key.push_back(static_cast<uint32_t>(n & 0xffffffffu));
      n >>= 32;
    } while (n > 0);
    init_by_array(key);
  }
  uint32_t genrand() {
    if (index_ >= 624) twist();
    uint32_t y = mt_[index_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
  }
  double random() {
    uint32_t a = genrand() >> 5, b = genrand() >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
  }
  std::size_t below(std::size_t n) {  // _randbelow_with_getrandbits, n < 2^32
    int k = 0;
    for (std::size_t v = n; v; v >>= 1) ++k;
    for (;;) {
      uint32_t r = genrand() >> (32 - k);
      if (r < n) return r;
    }
  }
  double gauss() {
    if (has_next_) {
      has_next_ = false;
      return next_;
    }
    const double two_pi = 6.283185307179586;
    double x2pi = random() * two_pi;
    double g2rad = std::sqrt(-2.0 * std::log(1.0 - random()));
    next_ = std::sin(x2pi) * g2rad;
    has_next_ = true;
    return std::cos(x2pi) * g2rad;
  }

 private:
  void init_genrand(uint32_t s) {
    mt_[0] = s;
    for (int i = 1; i < 624; ++i) mt_[i] = 1812433253u * (mt_[i - 1] ^ (mt_[i - 1] >> 30)) + static_cast<uint32_t>(i);
    index_ = 624;
  }
  void init_by_array(const std::vector<uint32_t>& key) {
    init_genrand(19650218u);
    int i = 1, j = 0;
    const int n = static_cast<int>(key.size());
    for (int k = std::max(624, n); k; --k) {
      mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525u)) + key[j] + static_cast<uint32_t>(j);
      ++i, ++j;
      if (i >= 624) mt_[0] = mt_[623], i = 1;
      if (j >= n) j = 0;
    }
    for (int k = 623; k; --k) {
      mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941u)) - static_cast<uint32_t>(i);
      ++i;
      if (i >= 624) mt_[0] = mt_[623], i = 1;
    }
    mt_[0] = 0x80000000u;
  }
  void twist() {
    for (int k = 0; k < 624; ++k) {
      uint32_t y = (mt_[k] & 0x80000000u) | (mt_[(k + 1) % 624] & 0x7fffffffu);
      mt_[k] = mt_[(k + 397) % 624] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
    }
    index_ = 0;
  }
  uint32_t mt_[624];
  int index_ = 625;
  bool has_next_ = false;
  double next_ = 0;
};

bool in(char32_t c, char32_t a, char32_t b) { return c >= a && c <= b; }

// messages.properties: key=value with \uXXXX escapes (langdetect decodes it with unicode_escape)
std::unordered_map<std::string, std::u32string> read_messages(const std::string& path) {
  std::unordered_map<std::string, std::u32string> out;
  LineReader in(path);
  std::string line;
  while (in.next(line)) {
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::u32string value;
    for (std::size_t i = eq + 1; i < line.size();) {
      if (line[i] == '\\' && i + 5 < line.size() + 0 && line[i + 1] == 'u') {
        value.push_back(static_cast<char32_t>(std::stoul(line.substr(i + 2, 4), nullptr, 16)));
        i += 6;
      } else {
        value.push_back(static_cast<char32_t>(static_cast<unsigned char>(line[i])));
        ++i;
      }
    }
    out[line.substr(0, eq)] = value;
  }
  return out;
}

bool url_char(char32_t c) {
  return (c >= U'0' && c <= U'9') || (c >= U'A' && c <= U'Z') || (c >= U'a' && c <= U'z') ||
         std::u32string_view(U"-_.?&~;+=/#").find(c) != std::u32string_view::npos;
}
bool mail_local(char32_t c) { return (c >= U'0' && c <= U'9') || (c >= U'A' && c <= U'Z') || (c >= U'a' && c <= U'z') || c == U'-' || c == U'_' || c == U'.'; }
bool mail_domain1(char32_t c) { return (c >= U'0' && c <= U'9') || (c >= U'A' && c <= U'Z') || (c >= U'a' && c <= U'z') || c == U'-' || c == U'_'; }

// re.sub(r'https?://[-_.?&~;+=/#0-9A-Za-z]{1,2076}', ' ', text)
std::u32string remove_urls(const std::u32string& t) {
  std::u32string out;
  for (std::size_t i = 0; i < t.size();) {
    std::size_t k = std::u32string::npos;
    if (t.compare(i, 4, U"http") == 0) {
      if (t.compare(i + 4, 4, U"s://") == 0) k = i + 8;
      else if (t.compare(i + 4, 3, U"://") == 0) k = i + 7;
    }
    if (k != std::u32string::npos) {
      std::size_t e = k;
      while (e < t.size() && e - k < 2076 && url_char(t[e])) ++e;
      if (e > k) {
        out.push_back(U' ');
        i = e;
        continue;
      }
    }
    out.push_back(t[i++]);
  }
  return out;
}

// re.sub(r'[-_.0-9A-Za-z]{1,64}@[-_0-9A-Za-z]{1,255}[-_.0-9A-Za-z]{1,255}', ' ', text): the
// leftmost start is the earliest local-part character within 64 of the '@'; the domain takes
// the longest run the two classes allow (the first class needs to leave at least one character).
std::u32string remove_mails(const std::u32string& t) {
  std::u32string out;
  std::size_t i = 0;
  while (i < t.size()) {
    std::size_t at = t.find(U'@', i);
    if (at == std::u32string::npos) break;
    std::size_t start = at;
    while (start > i && mail_local(t[start - 1]) && at - (start - 1) <= 64) --start;
    std::size_t a = at + 1, e1 = a;
    while (e1 < t.size() && e1 - a < 255 && mail_domain1(t[e1])) ++e1;
    std::size_t e2 = e1;
    while (e2 < t.size() && e2 - e1 < 255 && mail_local(t[e2])) ++e2;
    std::size_t end = std::u32string::npos;
    if (start < at) {
      if (e1 > a && e2 > e1) end = e2;
      else if (e1 - a >= 2) end = e1;  // the second class takes the first class's last character
    }
    if (end == std::u32string::npos) {
      out.append(t, i, at + 1 - i);
      i = at + 1;
      continue;
    }
    out.append(t, i, start - i);
    out.push_back(U' ');
    i = end;
  }
  out.append(t, i, std::u32string::npos);
  return out;
}
}  // namespace

std::string default_langdetect_profiles() {
  for (const char* p : {"/usr/lib/python3/dist-packages/langdetect/profiles", "/usr/share/python3-langdetect/profiles"})
    if (std::filesystem::is_directory(p)) return p;
  return "/usr/lib/python3/dist-packages/langdetect/profiles";
}

LanguageIdentifier::~LanguageIdentifier() = default;

LanguageIdentifier::LanguageIdentifier(LangidOptions options) : options_(std::move(options)) {
  if (options_.profiles.empty()) options_.profiles = default_langdetect_profiles();
  const std::string dir = options_.profiles;
  // os.listdir order (readdir), as langdetect loads them: the language order is kept
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) throw InputError(dir, 0, "langdetect profile directory not found (install python3-langdetect or set --profiles)");
  std::vector<std::string> files;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    files.push_back(name);
  }
  closedir(d);
  if (files.empty()) throw InputError(dir, 0, "no language profiles in this directory");
  const std::size_t langsize = files.size();
  std::vector<std::pair<std::u32string, std::vector<std::pair<std::size_t, double>>>> rows;
  for (const auto& name : files) {
    if (name[0] == '.') continue;
    const std::string path = dir + "/" + name;
    if (!std::filesystem::is_regular_file(path)) continue;
    nlohmann::json profile;
    try {
      std::ifstream in(path);
      profile = nlohmann::json::parse(in);
    } catch (const std::exception& e) {
      throw InputError(path, 0, std::string("profile format error: ") + e.what());
    }
    const std::size_t index = langs_.size();
    langs_.push_back(profile.at("name").get<std::string>());
    const auto& n_words = profile.at("n_words");
    for (auto it = profile.at("freq").begin(); it != profile.at("freq").end(); ++it) {
      std::u32string word = utf8::decode(it.key());
      auto [row, added] = ngram_row_.emplace(word, ngram_row_.size());
      if (added) probs_.resize(probs_.size() + langsize, 0.0);
      if (word.size() >= 1 && word.size() <= 3)
        probs_[row->second * langsize + index] = 1.0 * it.value().get<double>() / n_words.at(word.size() - 1).get<double>();
    }
  }
  // rows are langsize wide; keep langsize == number of languages (no stray files) for the math
  if (langs_.size() != langsize) {
    std::vector<double> compact(ngram_row_.size() * langs_.size());
    for (std::size_t r = 0; r < ngram_row_.size(); ++r)
      for (std::size_t l = 0; l < langs_.size(); ++l) compact[r * langs_.size() + l] = probs_[r * langsize + l];
    probs_ = std::move(compact);
  }
  const std::string messages = dir + "/../utils/messages.properties";
  if (!std::filesystem::exists(messages)) throw InputError(messages, 0, "langdetect's messages.properties not found next to the profiles");
  auto m = read_messages(messages);
  latin1_excluded_ = m["NGram.LATIN1_EXCLUDE"];
  // CJK classes in file order (the order of NGram.CJK_CLASS); later classes override earlier ones
  LineReader in(messages);
  std::string line;
  while (in.next(line)) {
    if (line.rfind("NGram.KANJI_", 0) != 0) continue;
    const std::u32string& cls = m[line.substr(0, line.find('='))];
    for (char32_t c : cls) cjk_map_[c] = cls[0];
  }
  vi_alphabet_ = m["TO_NORMALIZE_VI_CHARS"];
  vi_marks_ = m["DMARK_CLASS"];
  for (const char* k : {"NORMALIZED_VI_CHARS_0300", "NORMALIZED_VI_CHARS_0301", "NORMALIZED_VI_CHARS_0303",
                        "NORMALIZED_VI_CHARS_0309", "NORMALIZED_VI_CHARS_0323"})
    vi_normalised_.push_back(m[k]);
}

char32_t LanguageIdentifier::normalise_char(char32_t c) const {
  if (c <= 0x7F) {
    if (c < U'A' || (c > U'Z' && c < U'a') || c > U'z') return U' ';
  } else if (in(c, 0x80, 0xFF)) {
    if (latin1_excluded_.find(c) != std::u32string::npos) return U' ';
  } else if (in(c, 0x180, 0x24F)) {
    if (c == 0x219) return 0x15F;
    if (c == 0x21B) return 0x163;
  } else if (in(c, 0x2000, 0x206F)) {
    return U' ';
  } else if (in(c, 0x600, 0x6FF)) {
    if (c == 0x6CC) return 0x64A;
  } else if (in(c, 0x1E00, 0x1EFF)) {
    if (c >= 0x1EA0) return 0x1EC3;
  } else if (in(c, 0x3040, 0x309F)) {
    return 0x3042;
  } else if (in(c, 0x30A0, 0x30FF)) {
    return 0x30A2;
  } else if (in(c, 0x3100, 0x312F) || in(c, 0x31A0, 0x31BF)) {
    return 0x3105;
  } else if (in(c, 0x4E00, 0x9FFF)) {
    auto it = cjk_map_.find(c);
    return it == cjk_map_.end() ? c : it->second;
  } else if (in(c, 0xAC00, 0xD7AF)) {
    return 0xAC00;
  }
  return c;
}

std::u32string LanguageIdentifier::normalise_text(const std::u32string& raw) const {
  std::u32string t = remove_mails(remove_urls(raw));
  std::u32string vi;  // Vietnamese: letter + combining mark -> precomposed letter
  for (std::size_t i = 0; i < t.size(); ++i) {
    std::size_t a = vi_alphabet_.find(t[i]);
    if (a != std::u32string::npos && i + 1 < t.size()) {
      std::size_t mark = vi_marks_.find(t[i + 1]);
      if (mark != std::u32string::npos && mark < vi_normalised_.size() && a < vi_normalised_[mark].size()) {
        vi.push_back(vi_normalised_[mark][a]);
        ++i;
        continue;
      }
    }
    vi.push_back(t[i]);
  }
  std::u32string text;
  char32_t pre = 0;
  for (std::size_t i = 0; i < std::min<std::size_t>(vi.size(), static_cast<std::size_t>(options_.max_text_length)); ++i) {
    char32_t ch = vi[i];
    if (ch != U' ' || pre != U' ') text.push_back(ch);
    pre = ch;
  }
  // cleaning_text: drop Latin letters from mostly non-Latin text. langdetect compares the block
  // number with the string 'Latin Extended Additional', which is never equal, so every character
  // from U+0300 up counts as non-Latin; reproduced.
  long latin = 0, non_latin = 0;
  for (char32_t ch : text) {
    if (ch >= U'A' && ch <= U'z') ++latin;
    else if (ch >= 0x300) ++non_latin;
  }
  if (latin * 2 < non_latin) {
    std::u32string kept;
    for (char32_t ch : text)
      if (ch < U'A' || ch > U'z') kept.push_back(ch);
    text = std::move(kept);
  }
  return text;
}

std::vector<LangGuess> LanguageIdentifier::probabilities(const std::string& utf8_text) const {
  const std::u32string text = normalise_text(utf8::decode(utf8_text));
  // n-gram extraction (NGram.add_char): a 3-character window reset at spaces; capital words skipped
  std::vector<std::size_t> ngrams;
  std::u32string grams = U" ";
  bool capital = false;
  auto is_upper = [](char32_t c) { return u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_UPPERCASE) != 0; };
  for (char32_t raw : text) {
    char32_t ch = normalise_char(raw);
    char32_t last = grams.back();
    bool skip = false;
    if (last == U' ') {
      grams = U" ";
      capital = false;
      if (ch == U' ') skip = true;
    } else if (grams.size() >= 3) {
      grams.erase(0, 1);
    }
    if (!skip) {
      grams.push_back(ch);
      if (is_upper(ch)) {
        if (is_upper(last)) capital = true;
      } else {
        capital = false;
      }
    }
    if (capital) continue;
    for (std::size_t n = 1; n <= 3; ++n) {
      if (grams.size() < n) break;
      std::u32string w = grams.substr(grams.size() - n);
      if (w == U" ") continue;
      auto it = ngram_row_.find(w);
      if (it != ngram_row_.end()) ngrams.push_back(it->second);
    }
  }
  if (ngrams.empty()) return {};
  const std::size_t L = langs_.size();
  std::vector<double> langprob(L, 0.0), prob(L);
  std::random_device entropy;
  PythonRandom rng(options_.seed >= 0 ? options_.seed : static_cast<int64_t>(entropy()));
  for (int t = 0; t < options_.trials; ++t) {
    std::fill(prob.begin(), prob.end(), 1.0 / static_cast<double>(L));
    const double alpha = options_.alpha + rng.gauss() * 0.05;
    for (int i = 0;; ++i) {
      const std::size_t row = ngrams[rng.below(ngrams.size())];
      const double weight = alpha / 10000.0;
      const double* p = &probs_[row * L];
      for (std::size_t l = 0; l < L; ++l) prob[l] *= weight + p[l];
      if (i % 5 == 0) {
        double sum = 0, maxp = 0;
        for (double v : prob) sum += v;  // Python's sum(): left to right
        for (double& v : prob) {
          v = v / sum;
          maxp = std::max(maxp, v);
        }
        if (maxp > 0.99999 || i >= 1000) break;
      }
    }
    for (std::size_t l = 0; l < L; ++l) langprob[l] += prob[l] / options_.trials;
  }
  std::vector<LangGuess> out;
  for (std::size_t l = 0; l < L; ++l)
    if (langprob[l] > 0.1) out.push_back({langs_[l], langprob[l]});
  std::stable_sort(out.begin(), out.end(), [](const LangGuess& a, const LangGuess& b) { return a.prob > b.prob; });
  return out;
}

LangGuess LanguageIdentifier::detect(const std::string& utf8_text) const {
  auto p = probabilities(utf8_text);
  return p.empty() ? LangGuess{} : p.front();
}

}  // namespace synmt
