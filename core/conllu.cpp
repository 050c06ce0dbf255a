#include "core/conllu.h"

#include <ostream>
#include <sstream>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/strings.h"
#include "core/line_reader.h"

namespace synmt::conllu {
namespace {

std::vector<std::string> split_tabs(const std::string& line) { return split_fields(line, '\t'); }

bool all_digits(const std::string& s) { return parse_index(s) >= 0; }

class Validator {
 public:
  Validator(const std::string& name, const ConlluReadOptions& o) : name_(name), options_(o) {}

  [[noreturn]] void fail(std::size_t line, const std::string& message) const { throw InputError(name_, line, message); }

  // Classifies the row and checks that its id continues the sentence.
  void add_row(ConlluSentence& s, ConlluRow row) {
    const std::string& id = row.cols[0];
    if (auto dash = id.find('-'); dash != std::string::npos) {
      row.kind = ConlluRow::Kind::MultiwordToken;
      const std::string a = id.substr(0, dash), b = id.substr(dash + 1);
      if (!all_digits(a) || !all_digits(b)) fail(row.line, "multiword token id '" + id + "' is not a range N-M");
      if (parse_index(a) != words_ + 1 || parse_index(b) <= parse_index(a))
        fail(row.line, "multiword token range '" + id + "' does not start at the next word (" + std::to_string(words_ + 1) +
                           ") or is empty");
    } else if (auto dot = id.find('.'); dot != std::string::npos) {
      row.kind = ConlluRow::Kind::EmptyNode;
      if (!all_digits(id.substr(0, dot)) || !all_digits(id.substr(dot + 1)) || parse_index(id.substr(0, dot)) != words_)
        fail(row.line, "empty node id '" + id + "' must be N.k after word N = " + std::to_string(words_));
    } else {
      if (!all_digits(id)) fail(row.line, "word id '" + id + "' is not an integer");
      if (parse_index(id) != words_ + 1)
        fail(row.line, "word id " + id + " out of sequence (expected " + std::to_string(words_ + 1) + ")");
      ++words_;
      if (!all_digits(row.cols[6])) fail(row.line, "head '" + row.cols[6] + "' is not a non-negative integer");
    }
    s.rows.push_back(std::move(row));
  }

  // Tree checks once the sentence is complete.
  void finish(const ConlluSentence& s) {
    if (words_ == 0) fail(s.first_line, "sentence without words");
    auto words = s.words();
    auto heads = s.heads();
    int roots = 0;
    for (std::size_t k = 0; k < heads.size(); ++k) {
      if (heads[k] > static_cast<int>(heads.size()))
        fail(words[k]->line, "head " + std::to_string(heads[k]) + " is out of range (the sentence has " +
                                 std::to_string(heads.size()) + " words)");
      if (heads[k] == static_cast<int>(k) + 1) fail(words[k]->line, "word " + std::to_string(k + 1) + " is its own head");
      roots += heads[k] == 0;
    }
    if (roots == 0) fail(s.first_line, "sentence has no root (no word with head 0)");
    if (roots > 1 && options_.require_single_root) {
      std::size_t second = 0;
      int seen = 0;
      for (std::size_t k = 0; k < heads.size() && !second; ++k)
        if (heads[k] == 0 && ++seen == 2) second = words[k]->line;
      fail(second, "sentence has " + std::to_string(roots) + " roots (words with head 0); UD allows one");
    }
    for (std::size_t k = 0; k < heads.size(); ++k) {  // following heads from every word must reach 0
      int v = static_cast<int>(k) + 1, steps = 0;
      while (v != 0 && steps++ <= static_cast<int>(heads.size())) v = heads[static_cast<std::size_t>(v - 1)];
      if (v != 0) fail(words[k]->line, "the heads form a cycle through word " + std::to_string(k + 1));
    }
    words_ = 0;
  }

 private:
  std::string name_;
  ConlluReadOptions options_;
  int words_ = 0;
};

std::vector<ConlluSentence> read_lines(LineReader& in, const std::string& name, const ConlluReadOptions& options) {
  std::vector<ConlluSentence> out;
  ConlluSentence sent;
  Validator v(name, options);
  std::string line;
  bool open = false;  // a sentence has started
  const bool lenient = options.lenient_layout;
  auto close_sentence = [&]() {
    if (lenient && sent.rows.empty()) {  // a block of comments only: nothing to score
      sent = ConlluSentence{};
      return;
    }
    v.finish(sent);
    out.push_back(std::move(sent));
    sent = ConlluSentence{};
  };
  while (in.next(line)) {
    const std::size_t n = in.line_number();
    if (line.empty()) {
      if (!open && !lenient) throw InputError(name, n, "blank line outside a sentence (sentences are separated by exactly one blank line)");
      if (open) close_sentence();
      open = false;
      continue;
    }
    if (!open) sent.first_line = n;
    open = true;
    if (line[0] == '#') {
      if (!sent.rows.empty() && !lenient) throw InputError(name, n, "comment line after the first word of a sentence");
      sent.comments.push_back(line);
      continue;
    }
    ConlluRow row;
    row.cols = split_tabs(line);
    row.line = n;
    if (row.cols.size() != 10)
      throw InputError(name, n, "expected 10 tab-separated columns, found " + std::to_string(row.cols.size()));
    for (std::size_t c = 0; c < 10 && !lenient; ++c)
      if (row.cols[c].empty()) throw InputError(name, n, "column " + std::to_string(c + 1) + " is empty (use '_')");
    v.add_row(sent, std::move(row));
  }
  if (open && !lenient) throw InputError(name, in.line_number(), "the last sentence is not terminated by a blank line");
  if (open) close_sentence();
  if (out.empty()) throw InputError(name, 0, "no sentences");
  return out;
}

}  // namespace

std::map<std::string, std::string> ConlluSentence::metadata() const {
  std::map<std::string, std::string> m;
  for (const auto& c : comments) {
    auto eq = c.find(" = ");
    if (eq == std::string::npos) continue;
    std::size_t b = c.find_first_not_of("# ");
    if (b == std::string::npos || b >= eq) continue;
    m[c.substr(b, eq - b)] = c.substr(eq + 3);
  }
  return m;
}

std::vector<const ConlluRow*> ConlluSentence::words() const {
  std::vector<const ConlluRow*> w;
  for (const auto& r : rows)
    if (r.kind == ConlluRow::Kind::Word) w.push_back(&r);
  return w;
}

std::vector<int> ConlluSentence::heads() const {
  std::vector<int> h;
  for (const auto& r : rows)
    if (r.kind == ConlluRow::Kind::Word) h.push_back(parse_index(r.cols[6]));
  return h;
}

std::vector<std::string> ConlluSentence::tokens() const {
  std::vector<std::string> t;
  int covered_until = 0, word = 0;
  for (const auto& r : rows) {
    if (r.kind == ConlluRow::Kind::MultiwordToken) {
      t.push_back(r.cols[1]);
      covered_until = parse_index(r.cols[0].substr(r.cols[0].find('-') + 1));
    } else if (r.kind == ConlluRow::Kind::Word) {
      if (++word > covered_until) t.push_back(r.cols[1]);
    }
  }
  return t;
}

std::vector<ConlluSentence> read_conllu(const std::string& path, const ConlluReadOptions& options) {
  LineReaderOptions lo;
  lo.strip_cr = options.lenient_layout;  // strict: verbatim, a stray CR stays in its column and is written back
  LineReader in(path, lo);
  return read_lines(in, path, options);
}

void write_conllu(std::ostream& out, const std::vector<ConlluSentence>& sentences) {
  for (const auto& s : sentences) {
    for (const auto& c : s.comments) out << c << '\n';
    for (const auto& r : s.rows) {
      for (std::size_t c = 0; c < r.cols.size(); ++c) out << (c ? "\t" : "") << r.cols[c];
      out << '\n';
    }
    out << '\n';
  }
}

void write_conllu_file(const std::string& path, const std::vector<ConlluSentence>& sentences) {
  AtomicFile file(path);
  std::ostringstream buffer;
  write_conllu(buffer, sentences);
  file.write(buffer.str());
  file.commit();
}

}  // namespace synmt::conllu
