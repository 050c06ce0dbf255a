#include "eval/conllu.h"

#include "core/conllu.h"
#include "core/strings.h"

namespace synmt::eval {

// The scoring view of core/conllu.h's document: the reader checks ids, heads, roots and cycles
// (lenient about layout, as CoNLL 2018's evaluation is about system outputs); here each word gets
// its surface token (the multiword token it belongs to, or itself).
std::vector<ConlluSentence> read_conllu(const std::string& path) {
  conllu::ConlluReadOptions options;
  options.require_single_root = false;
  options.lenient_layout = true;
  std::vector<ConlluSentence> out;
  for (const auto& doc : conllu::read_conllu(path, options)) {
    ConlluSentence sent;
    sent.first_line = doc.first_line;
    int mwt_end = 0;
    for (const auto& row : doc.rows) {
      if (row.kind == conllu::ConlluRow::Kind::EmptyNode) continue;
      if (row.kind == conllu::ConlluRow::Kind::MultiwordToken) {
        mwt_end = parse_index(row.id().substr(row.id().find('-') + 1));
        sent.token_forms.push_back(row.form());
        continue;
      }
      ConlluWord w;
      w.id = static_cast<int>(sent.words.size()) + 1;
      w.form = row.cols[1];
      w.lemma = row.cols[2];
      w.upos = row.cols[3];
      w.xpos = row.cols[4];
      w.feats = row.cols[5];
      w.head = parse_index(row.cols[6]);
      w.deprel = row.cols[7];
      w.line = row.line;
      if (w.id > mwt_end) sent.token_forms.push_back(w.form);
      w.token = static_cast<int>(sent.token_forms.size()) - 1;
      sent.words.push_back(std::move(w));
    }
    out.push_back(std::move(sent));
  }
  return out;
}

}  // namespace synmt::eval
