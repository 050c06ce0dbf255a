#include "core/error.h"
#include "core/strings.h"
#include "core/line_reader.h"
#include "core/sha256.h"
#include "parse/backends.h"
#include "parse/conllu.h"

namespace synmt::parse {

std::vector<std::vector<std::string>> read_tokenised_corpus(const std::string& path) {
  std::vector<std::vector<std::string>> lines;
  LineReader in(path);
  std::string line;
  while (in.next(line)) {
    std::vector<std::string> tokens;
    std::size_t b = 0;
    while (b < line.size()) {
      while (b < line.size() && line[b] == ' ') ++b;
      std::size_t e = line.find(' ', b);
      if (e == std::string::npos) e = line.size();
      if (e > b) tokens.push_back(line.substr(b, e - b));
      b = e;
    }
    if (tokens.empty()) in.fail("empty line: a parser cannot parse an empty sentence (clean the corpus first)");
    lines.push_back(std::move(tokens));
  }
  return lines;
}

void export_conllu(const std::string& corpus_path, const ParsedCorpus& parses, const std::string& output) {
  auto corpus = read_tokenised_corpus(corpus_path);
  if (corpus.size() != parses.size())
    throw InputError(corpus_path, 0, "has " + std::to_string(corpus.size()) + " lines but the parse cache " +
                                         std::to_string(parses.size()) + " sentences");
  std::vector<ConlluSentence> out(corpus.size());
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    const int64_t base = parses.offsets[i];
    if (parses.offsets[i + 1] - base != static_cast<int64_t>(corpus[i].size()))
      throw InputError(corpus_path, i + 1, "the parse cache has another number of words for this line");
    for (std::size_t k = 0; k < corpus[i].size(); ++k) {
      const auto w = static_cast<std::size_t>(base) + k;
      ConlluRow row;
      row.cols = {std::to_string(k + 1), corpus[i][k], "_", parses.upos_names[static_cast<std::size_t>(parses.upos[w])], "_", "_",
                  std::to_string(parses.heads[w]), parses.label_names[static_cast<std::size_t>(parses.labels[w])], "_", "_"};
      out[i].rows.push_back(std::move(row));
    }
  }
  write_conllu_file(output, out);
}

ParsedCorpus import_conllu(const std::string& corpus_path, const std::string& conllu_path) {
  auto corpus = read_tokenised_corpus(corpus_path);
  ConlluReadOptions ro;
  auto sentences = read_conllu(conllu_path, ro);
  if (sentences.size() != corpus.size())
    throw InputError(conllu_path, 0, "has " + std::to_string(sentences.size()) + " sentences but " + corpus_path + " has " +
                                         std::to_string(corpus.size()) + " lines");
  ParsedCorpus p;
  for (std::size_t i = 0; i < sentences.size(); ++i) {
    const auto& s = sentences[i];
    std::vector<std::string> forms;
    for (const auto* w : s.words()) forms.push_back(w->form());
    if (forms != corpus[i] && s.tokens() != corpus[i]) {
      std::size_t k = 0;
      while (k < forms.size() && k < corpus[i].size() && forms[k] == corpus[i][k]) ++k;
      throw InputError(conllu_path, s.first_line,
                       "sentence " + std::to_string(i + 1) + " does not match line " + std::to_string(i + 1) + " of " + corpus_path +
                           " (first difference at token " + std::to_string(k + 1) + ": '" + (k < forms.size() ? forms[k] : "<end>") +
                           "' vs '" + (k < corpus[i].size() ? corpus[i][k] : "<end>") + "')");
    }
    if (forms != corpus[i])
      throw InputError(conllu_path, s.first_line, "sentence " + std::to_string(i + 1) +
                                                       " splits multiword tokens; the corpus line has the surface tokens, so "
                                                       "word-level heads cannot be aligned to it (tokenise the corpus into words)");
    std::vector<int32_t> heads;
    std::vector<std::string> labels, upos;
    for (const auto* w : s.words()) {
      heads.push_back(parse_index(w->cols[6]));  // validated by read_conllu
      labels.push_back(w->deprel());
      upos.push_back(w->upos());
    }
    p.add(heads, labels, upos);
  }
  p.corpus_sha256 = sha256_file(corpus_path);
  p.parser_id = "conllu:" + sha256_file(conllu_path);
  return p;
}

}  // namespace synmt::parse
