#pragma once
// CoNLL-U documents as they are on disk (https://universaldependencies.org/format.html): comments
// (with "# key = value" metadata), words, multiword-token ranges and empty nodes, all ten columns
// kept verbatim, so that reading and writing a UD file reproduces it byte for byte. The reader
// validates what the parsing stage relies on and reports the file and line of the first problem:
// column count, ids in sequence, integer heads in range, exactly one root, no cycles. The one
// CoNLL-U model: parse/ (treebanks, imports) and eval/ (attachment scores, eval/conllu.h's
// scoring view) both read through it.
#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace synmt::conllu {

struct ConlluRow {
  enum class Kind { Word, MultiwordToken, EmptyNode };
  Kind kind = Kind::Word;
  std::vector<std::string> cols;  // the ten columns, verbatim
  std::size_t line = 0;           // where it was read (0 when built in memory)

  const std::string& id() const { return cols[0]; }
  const std::string& form() const { return cols[1]; }
  const std::string& upos() const { return cols[3]; }
  const std::string& deprel() const { return cols[7]; }
};

struct ConlluSentence {
  std::vector<std::string> comments;  // lines starting with '#', verbatim (with the '#')
  std::vector<ConlluRow> rows;        // in file order
  std::size_t first_line = 0;

  // "# key = value" comments (sent_id, text, newdoc id, ...)
  std::map<std::string, std::string> metadata() const;
  // The syntactic words (rows of Kind::Word) in order; word k has id k + 1.
  std::vector<const ConlluRow*> words() const;
  // Heads of the words (0 = root), parsed from column 7.
  std::vector<int> heads() const;
  // The surface tokens: a multiword token's form once, other words' forms.
  std::vector<std::string> tokens() const;
};

struct ConlluReadOptions {
  bool require_single_root = true;  // UD: exactly one word attaches to 0
  // System outputs as scorers take them (CoNLL 2018's evaluation): runs of blank lines, no blank
  // line after the last sentence, comments between rows, empty columns, CR line ends, and blocks
  // without words (dropped) are accepted; ids, heads, roots and cycles are checked as always.
  bool lenient_layout = false;
};

std::vector<ConlluSentence> read_conllu(const std::string& path, const ConlluReadOptions& options = {});
// Writes sentences as CoNLL-U: comments, rows (columns joined by tabs), one blank line after each.
void write_conllu(std::ostream& out, const std::vector<ConlluSentence>& sentences);
void write_conllu_file(const std::string& path, const std::vector<ConlluSentence>& sentences);  // atomic

}  // namespace synmt::conllu
