#include "binarize/binarize.h"

#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "core/error.h"
#include "core/line_reader.h"
#include "core/log.h"
#include "core/sha256.h"
#include "core/strings.h"
#include "parse/parse_cache.h"
#include "parse/source_syntax.h"
#include "synmt/version.h"

namespace synmt {
namespace {

template <class T>
void append(std::vector<T>& to, const std::vector<T>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// A parse cache whose key is checked against the tokenised text it was made from.
parse::ParsedCorpus read_keyed_cache(const std::string& cache, const std::string& corpus) {
  if (corpus.empty()) throw ConfigError("--src-parse/--parse needs the tokenised text it was made from (its key is checked)");
  return parse::read_parse_cache(cache, sha256_file(corpus), "");
}


// Word spans need only the sub-word marks.
void add_word_spans(const std::vector<std::string>& pieces, parse::SubwordMarks marks, ParallelData& data) {
  const auto spans = parse::word_spans(pieces, marks);
  for (std::size_t w = 0; w < spans.size(); ++w)
    data.src_word.insert(data.src_word.end(), static_cast<std::size_t>(spans[w].last - spans[w].first + 1), static_cast<int32_t>(w));
}

void set_attributes(const SplitFiles& f, const Vocab& sv, const Vocab& tv, const SourceParses* p, ParallelData& data) {
  data.attributes = {{"src_vocab_sha256", sv.hash()},
                     {"tgt_vocab_sha256", tv.hash()},
                     {"src_sha256", sha256_file(f.src)},
                     {"tgt_sha256", sha256_file(f.tgt)},
                     {"codes_sha256", f.codes.empty() ? "" : sha256_file(f.codes)},
                     {"src_subwords", f.subwords},
                     {"tool_version", "synmt " SYNMT_VERSION}};
  if (p == nullptr) return;
  data.attributes["src_parse_parser_id"] = p->parses.parser_id;
  data.attributes["src_parse_corpus_sha256"] = p->parses.corpus_sha256;
  data.attributes[kSrcLabelInventoryAttr] = p->inventories.labels.hash();
  data.attributes[kSrcLabelCountAttr] = std::to_string(p->inventories.labels.size());
  data.attributes[kSrcUposInventoryAttr] = p->inventories.upos.hash();
  data.attributes[kSrcUposCountAttr] = std::to_string(p->inventories.upos.size());
  data.attributes["src_label_unknown_words"] = std::to_string(p->unknown_labels);
  data.attributes["src_upos_unknown_words"] = std::to_string(p->unknown_upos);
}

}  // namespace

SourceParses load_source_parses(const std::string& cache, const std::string& corpus, const std::string& labels,
                                const std::string& upos, ParallelData& data) {
  SourceParses p;
  p.cache = cache;
  p.parses = read_keyed_cache(cache, corpus);
  p.inventories = {parse::Inventory::load(labels), parse::Inventory::load(upos)};
  p.ids = parse::map_cache_ids(p.parses, p.inventories);
  data.src_label_names = p.inventories.labels.names();
  data.src_upos_names = p.inventories.upos.names();
  if (!p.ids.unknown_labels.empty()) log_warn(cache + ": labels not in " + labels + " (id 0 = <unk>): " + joined(p.ids.unknown_labels));
  if (!p.ids.unknown_upos.empty()) log_warn(cache + ": UPOS not in " + upos + " (id 0 = <unk>): " + joined(p.ids.unknown_upos));
  return p;
}

void append_sentence_syntax(const std::vector<std::string>& pieces, SourceParses& p, parse::SubwordMarks marks,
                            LineReader& in, ParallelData& data) {
  parse::SourceSyntax s;
  try {
    s = parse::map_sentence_syntax(pieces, p.parses, data.size(), p.ids, marks);
  } catch (const std::invalid_argument& e) {
    in.fail(std::string("does not match the parse cache ") + p.cache + ": " + e.what());
  }
  append(data.src_parent_middle, s.parent_middle);
  append(data.src_parent_first, s.parent_first);
  append(data.src_label, s.label);
  append(data.src_upos, s.upos);
  append(data.src_word, s.word);
  p.unknown_labels += s.unknown_label_words;
  p.unknown_upos += s.unknown_upos_words;
}

Vocab build_vocab_from_files(const std::vector<std::string>& inputs, const VocabOptions& options) {
  std::vector<std::pair<std::string, int64_t>> counts;
  std::unordered_map<std::string, std::size_t> index;
  std::string line;
  for (const auto& path : inputs) {
    LineReader in(path);
    while (in.next(line)) {
      for (std::size_t b = 0; b < line.size();) {
        std::size_t e = line.find(' ', b);
        if (e == std::string::npos) e = line.size();
        if (e > b) {
          auto [it, added] = index.emplace(line.substr(b, e - b), counts.size());
          if (added) counts.emplace_back(it->first, 0);
          ++counts[it->second].second;
        }
        b = e + 1;
      }
    }
  }
  auto vocab = Vocab::build(counts, options);
  log_info("vocabulary: " + std::to_string(vocab.size()) + " entries from " + std::to_string(counts.size()) + " types");
  return vocab;
}

parse::SyntaxInventories build_inventories_from_cache(const std::string& cache, const std::string& corpus) {
  const auto train = read_keyed_cache(cache, corpus);
  parse::SyntaxInventories inv;
  try {
    inv = parse::build_inventories(train);
  } catch (const std::invalid_argument& e) {
    throw InputError(cache, 0, e.what());
  }
  log_info("inventories: " + std::to_string(inv.labels.size()) + " labels, " + std::to_string(inv.upos.size()) +
           " UPOS (with <unk>) from " + std::to_string(train.size()) + " sentences");
  return inv;
}

ParallelData binarize_split(const SplitFiles& f) {
  const bool with_syntax = !f.src_parse.empty();
  if (with_syntax && (f.src_labels.empty() || f.src_upos.empty()))
    throw ConfigError("--src-parse needs --src-labels and --src-upos (the pair's inventories, made from the training split)");
  const auto marks = parse::subword_marks_from_name(f.subwords);
  const auto sv = Vocab::load(f.src_vocab);
  const auto tv = Vocab::load(f.tgt_vocab);
  ParallelData data;
  SourceParses parses;
  if (with_syntax) parses = load_source_parses(f.src_parse, f.src_parse_corpus, f.src_labels, f.src_upos, data);
  LineReader rs(f.src), rt(f.tgt);
  std::string a, b;
  while (next_pair(rs, rt, a, b)) {
    auto si = sv.encode(a), ti = tv.encode(b);
    if (si.empty()) rs.fail("empty sentence (clean the corpus first)");
    if (ti.empty()) rt.fail("empty sentence (clean the corpus first)");
    const auto pieces = split_nonempty(a, ' ');
    if (pieces.size() != si.size()) rs.fail("sub-word count differs from the vocabulary encoding");
    if (with_syntax)  // sentence i of the cache belongs to this line
      append_sentence_syntax(pieces, parses, marks, rs, data);
    else
      add_word_spans(pieces, marks, data);
    data.add(si, ti, unknown_forms_of(pieces, si));  // LGP-NMT's n-grams and UnkRep read them
  }
  if (with_syntax && data.size() != parses.parses.size())
    throw InputError(f.src_parse, 0, "has " + std::to_string(parses.parses.size()) + " sentences but " + f.src + " has " +
                                         std::to_string(data.size()) + " lines");
  set_attributes(f, sv, tv, with_syntax ? &parses : nullptr, data);
  return data;
}

}  // namespace synmt
