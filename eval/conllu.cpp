#include "eval/conllu.h"

#include <sstream>

#include "core/error.h"
#include "core/strings.h"
#include "core/line_reader.h"

namespace synmt::eval {
namespace {
std::vector<std::string> split_tabs(const std::string& line) { return split_fields(line, '\t'); }

int parse_int(const std::string& s, LineReader& in, const char* what) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) in.fail(std::string(what) + " '" + s + "' is not a non-negative integer");
  return std::stoi(s);
}

void finish(ConlluSentence& sent, LineReader& in, std::vector<ConlluSentence>& out) {
  if (sent.words.empty()) return;
  int roots = 0;
  for (const auto& w : sent.words) {
    if (w.head > static_cast<int>(sent.words.size()))
      throw InputError(in.path(), w.line, "head " + std::to_string(w.head) + " is out of range");
    roots += w.head == 0;
  }
  if (roots == 0) throw InputError(in.path(), sent.first_line, "sentence has no root");
  // cycle check: following heads from every word must reach the root
  for (const auto& w : sent.words) {
    int v = w.id, steps = 0;
    while (v != 0 && steps <= static_cast<int>(sent.words.size())) v = sent.words[v - 1].head, ++steps;
    if (v != 0) throw InputError(in.path(), w.line, "the heads form a cycle through word " + std::to_string(w.id));
  }
  out.push_back(std::move(sent));
}
}  // namespace

std::vector<ConlluSentence> read_conllu(const std::string& path) {
  LineReader in(path);
  std::vector<ConlluSentence> out;
  ConlluSentence sent;
  std::string line;
  int mwt_end = 0;
  while (in.next(line)) {
    if (line.empty()) {
      finish(sent, in, out);
      sent = ConlluSentence{};
      mwt_end = 0;
      continue;
    }
    if (line[0] == '#') continue;
    auto cols = split_tabs(line);
    if (cols.size() != 10) in.fail("expected 10 tab-separated columns, found " + std::to_string(cols.size()));
    if (sent.words.empty() && sent.token_forms.empty()) sent.first_line = in.line_number();
    const std::string& id = cols[0];
    if (id.find('.') != std::string::npos) continue;  // empty node
    if (auto dash = id.find('-'); dash != std::string::npos) {
      parse_int(id.substr(0, dash), in, "multiword token start");
      mwt_end = parse_int(id.substr(dash + 1), in, "multiword token end");
      sent.token_forms.push_back(cols[1]);
      continue;
    }
    ConlluWord w;
    w.id = parse_int(id, in, "word id");
    if (w.id != static_cast<int>(sent.words.size()) + 1) in.fail("word id " + id + " out of sequence");
    w.form = cols[1];
    w.lemma = cols[2];
    w.upos = cols[3];
    w.xpos = cols[4];
    w.feats = cols[5];
    w.head = parse_int(cols[6], in, "head");
    w.deprel = cols[7];
    w.line = in.line_number();
    if (w.id <= mwt_end) {
      w.token = static_cast<int>(sent.token_forms.size()) - 1;
    } else {
      sent.token_forms.push_back(w.form);
      w.token = static_cast<int>(sent.token_forms.size()) - 1;
    }
    sent.words.push_back(std::move(w));
  }
  finish(sent, in, out);
  if (out.empty()) throw InputError(path, 0, "no sentences");
  return out;
}

}  // namespace synmt::eval
