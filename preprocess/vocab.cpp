#include "preprocess/vocab.h"

#include <algorithm>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/line_reader.h"
#include "core/sha256.h"
#include "core/strings.h"
#include "core/utf8.h"
#include "preprocess/unicode_classes.h"

namespace synmt {

const std::vector<std::string>& Vocab::specials() {
  static const std::vector<std::string> s = {"<pad>", "<unk>", "<s>", "</s>"};
  return s;
}

Vocab Vocab::build(const std::vector<std::pair<std::string, int64_t>>& counts, const VocabOptions& options) {
  std::vector<std::size_t> order(counts.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return counts[a].second > counts[b].second; });
  Vocab v;
  for (const auto& s : specials()) {
    v.index_[s] = static_cast<int32_t>(v.tokens_.size());
    v.tokens_.push_back(s);
    v.counts_.push_back(0);
  }
  for (std::size_t i : order) {
    if (counts[i].second < options.min_frequency) break;
    if (options.max_size > 0 && v.tokens_.size() >= static_cast<std::size_t>(options.max_size)) break;
    if (v.index_.count(counts[i].first)) continue;
    v.index_[counts[i].first] = static_cast<int32_t>(v.tokens_.size());
    v.tokens_.push_back(counts[i].first);
    v.counts_.push_back(counts[i].second);
  }
  return v;
}

std::string Vocab::serialise() const {
  std::string out;
  for (std::size_t i = 0; i < tokens_.size(); ++i) out += tokens_[i] + "\t" + std::to_string(counts_[i]) + "\n";
  return out;
}

void Vocab::save(const std::string& path) const { write_file_atomically(path, serialise()); }

Vocab Vocab::load(const std::string& path) {
  Vocab v;
  LineReader reader(path);
  std::string line;
  while (reader.next(line)) {
    auto tab = line.rfind('\t');
    if (tab == std::string::npos || tab == 0) reader.fail("expected 'token<TAB>count'");
    std::string token = line.substr(0, tab);
    const std::string field = line.substr(tab + 1);
    const int64_t count = parse_count(field);
    if (count < 0) reader.fail("count is not a non-negative integer: '" + field + "'");
    if (v.index_.count(token)) reader.fail("duplicate token '" + token + "'");
    v.index_[token] = static_cast<int32_t>(v.tokens_.size());
    v.tokens_.push_back(token);
    v.counts_.push_back(count);
  }
  const auto& sp = specials();
  for (std::size_t i = 0; i < sp.size(); ++i)
    if (v.tokens_.size() <= i || v.tokens_[i] != sp[i])
      throw InputError(path, i + 1, "expected special token '" + sp[i] + "' here");
  return v;
}

int32_t Vocab::id(const std::string& token) const {
  auto it = index_.find(token);
  return it == index_.end() ? kUnk : it->second;
}

std::string Vocab::hash() const { return sha256_hex(serialise()); }

std::vector<int32_t> Vocab::encode(const std::string& line) const {
  std::vector<int32_t> ids;
  std::size_t b = 0;
  while (b < line.size()) {
    std::size_t e = line.find(' ', b);
    if (e == std::string::npos) e = line.size();
    if (e > b) ids.push_back(id(line.substr(b, e - b)));
    b = e + 1;
  }
  return ids;
}

std::string Vocab::decode(const std::vector<int32_t>& ids) const {
  std::string out;
  for (int32_t i : ids) {
    if (i == kEos) break;
    if (i == kPad || i == kBos) continue;
    if (!out.empty()) out.push_back(' ');
    out += token(i);
  }
  return out;
}

bool is_punctuation_token(const std::string& token) {
  std::string t = token;
  if (t.size() > 2 && t.compare(t.size() - 2, 2, "@@") == 0) t.resize(t.size() - 2);
  for (const char* escape : {"&amp;", "&quot;", "&apos;", "&lt;", "&gt;", "&#91;", "&#93;", "&#124;"})
    for (std::size_t at; (at = t.find(escape)) != std::string::npos;) t.replace(at, std::char_traits<char>::length(escape), "&");
  if (t.empty() || !utf8::is_valid(t)) return false;
  for (char32_t c : utf8::decode(t))
    if (uc::is_alnum(c) || uc::is_number(c) || utf8::is_python_space(c)) return false;
  return true;
}

std::vector<int32_t> Vocab::punctuation_ids() const {
  std::vector<int32_t> ids;
  for (std::size_t i = specials().size(); i < tokens_.size(); ++i)
    if (is_punctuation_token(tokens_[i])) ids.push_back(static_cast<int32_t>(i));
  return ids;
}

}  // namespace synmt
