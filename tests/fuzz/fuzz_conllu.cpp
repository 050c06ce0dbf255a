// CoNLL-U: both readers (eval/ for scoring, parse/ for treebanks and imports), the derived views
// (heads, tokens, metadata), attachment scoring of the file against itself, and the import of a
// parse for a tokenised corpus made of the file's own tokens.
#include <string>
#include <vector>

#include "eval/attachment.h"
#include "eval/conllu.h"
#include "parse/backends.h"
#include "parse/conllu.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace synmt;
  const std::string path = fuzz::write_input("input.conllu", data, size);
  fuzz::expect_clear_errors([&] {
    auto sentences = eval::read_conllu(path);
    eval::attachment_scores(sentences, sentences);
  });
  for (bool single_root : {true, false}) {
    fuzz::expect_clear_errors([&] {
      parse::ConlluReadOptions options;
      options.require_single_root = single_root;
      auto sentences = parse::read_conllu(path, options);
      std::string corpus;
      for (const auto& s : sentences) {
        s.metadata();
        s.heads();
        for (const auto& t : s.words()) corpus += t->form() + " ";
        corpus += "\n";
      }
      if (single_root) return;
      const std::string corpus_path = fuzz::write_input("corpus.tok", reinterpret_cast<const uint8_t*>(corpus.data()), corpus.size());
      parse::import_conllu(corpus_path, path);
    });
  }
  return 0;
}
