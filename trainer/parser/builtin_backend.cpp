#include "trainer/parser/builtin_backend.h"

#include "core/sha256.h"
#include "parse/backends.h"
#include "trainer/parser/builtin_parser.h"
#include "trainer/runtime.h"

namespace synmt::parser {
namespace {
// Moses' tokenizer escapes & | < > ' " [ ] as XML entities; the parser was trained on the plain
// forms of a treebank, so it sees the token unescaped (the alignment stays one token per token).
std::string moses_unescape(const std::string& t) {
  if (t.find('&') == std::string::npos) return t;
  static const std::pair<const char*, const char*> kEntities[] = {{"&amp;", "&"},  {"&#124;", "|"}, {"&lt;", "<"},
                                                                  {"&gt;", ">"},   {"&apos;", "'"}, {"&quot;", "\""},
                                                                  {"&#91;", "["},  {"&#93;", "]"}};
  std::string out;
  for (std::size_t i = 0; i < t.size();) {
    bool replaced = false;
    for (const auto& [entity, plain] : kEntities)
      if (t.compare(i, std::char_traits<char>::length(entity), entity) == 0) {
        out += plain;
        i += std::char_traits<char>::length(entity);
        replaced = true;
        break;
      }
    if (!replaced) out += t[i++];
  }
  return out;
}
}  // namespace

std::string builtin_parser_id(const std::string& model_path) { return "builtin:" + sha256_file(model_path); }

parse::ParsedCorpus parse_with_builtin(const std::string& corpus_path, const std::string& model_path) {
  synmt::setup_runtime(0);
  auto parser = BuiltinParser::load(model_path);
  auto corpus = parse::read_tokenised_corpus(corpus_path);
  for (auto& line : corpus)
    for (auto& token : line) token = moses_unescape(token);
  parse::ParsedCorpus p;
  for (const auto& s : parser.parse(corpus)) p.add(s.heads, s.labels, s.upos);
  p.corpus_sha256 = sha256_file(corpus_path);
  p.parser_id = builtin_parser_id(model_path);
  return p;
}

parse::ParserBackend builtin_parser_backend() { return {"builtin", builtin_parser_id, parse_with_builtin}; }

}  // namespace synmt::parser
