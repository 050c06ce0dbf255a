// synmt-binarize: build vocabularies and syntax inventories, and turn (sub-word segmented)
// parallel text into HDF5 datasets.
#include "core/line_reader.h"
#include "core/log.h"
#include "core/sha256.h"
#include "core/strings.h"
#include "core/tool_main.h"
#include "parse/parse_cache.h"
#include "parse/source_syntax.h"
#include "parse/syntax_inventory.h"
#include "preprocess/dataset_file.h"
#include "preprocess/vocab.h"
#include "synmt/version.h"

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
synmt::parse::ParsedCorpus read_keyed_cache(const std::string& cache, const std::string& corpus) {
  if (corpus.empty()) throw synmt::ConfigError("--src-parse/--parse needs the tokenised text it was made from (its key is checked)");
  return synmt::parse::read_parse_cache(cache, synmt::sha256_file(corpus), "");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> vocab_inputs;
  std::string output, src, tgt, src_vocab_path, tgt_vocab_path, codes, src_parse, src_parse_corpus, src_labels, src_upos;
  std::string subwords = "bpe", labels_out, upos_out;
  synmt::VocabOptions vocab_options;
  CLI::App* vocab_cmd = nullptr;
  CLI::App* inventory_cmd = nullptr;
  CLI::App* data_cmd = nullptr;
  const auto subword_kinds = CLI::IsMember({"bpe", "spm", "none"});
  return synmt::run_tool(
      "synmt-binarize", argc, argv,
      [&](CLI::App& app) {
        app.description("Vocabularies, label/UPOS inventories and HDF5 datasets (token ids + offsets + provenance).");
        app.require_subcommand(1);
        vocab_cmd = app.add_subcommand("vocab", "count tokens and write a vocabulary");
        vocab_cmd->add_option("-i,--input", vocab_inputs, "text file(s); several give a joint vocabulary")->required();
        vocab_cmd->add_option("--min-frequency", vocab_options.min_frequency)->capture_default_str();
        vocab_cmd->add_option("--max-size", vocab_options.max_size, "0 = unlimited")->capture_default_str();
        vocab_cmd->add_option("-o,--output", output)->required();
        inventory_cmd = app.add_subcommand("inventory", "label and UPOS inventories from the TRAINING split's parse cache");
        inventory_cmd->add_option("--parse", src_parse, "parse cache of the training split")->required();
        inventory_cmd->add_option("--parse-corpus", src_parse_corpus, "the tokenised text the cache was made from")->required();
        inventory_cmd->add_option("--labels-out", labels_out, "label inventory (one name per line, <unk> first)")->required();
        inventory_cmd->add_option("--upos-out", upos_out, "UPOS inventory (one name per line, <unk> first)")->required();
        data_cmd = app.add_subcommand("data", "write one split as an HDF5 dataset");
        data_cmd->add_option("--src", src)->required();
        data_cmd->add_option("--tgt", tgt)->required();
        data_cmd->add_option("--src-vocab", src_vocab_path)->required();
        data_cmd->add_option("--tgt-vocab", tgt_vocab_path)->required();
        data_cmd->add_option("--codes", codes, "BPE codes used (recorded as provenance)");
        data_cmd->add_option("-o,--output", output)->required();
        auto* parse = data_cmd->add_option("--src-parse", src_parse, "parse cache of the source side: adds parents, labels, UPOS");
        data_cmd->add_option("--src-parse-corpus", src_parse_corpus, "the tokenised text the cache was made from (its key is checked)")
            ->needs(parse);
        data_cmd->add_option("--src-labels", src_labels, "the pair's label inventory (synmt-binarize inventory)")->needs(parse);
        data_cmd->add_option("--src-upos", src_upos, "the pair's UPOS inventory (synmt-binarize inventory)")->needs(parse);
        data_cmd->add_option("--subwords", subwords, "bpe ('@@ ' joins) | spm (U+2581 starts a word) | none (a token is a word)")
            ->capture_default_str()
            ->check(subword_kinds);
      },
      [&]() {
        if (vocab_cmd->parsed()) {
          std::vector<std::pair<std::string, int64_t>> counts;
          std::unordered_map<std::string, std::size_t> index;
          std::string line;
          for (const auto& path : vocab_inputs) {
            synmt::LineReader in(path);
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
          auto vocab = synmt::Vocab::build(counts, vocab_options);
          vocab.save(output);
          synmt::log_info("vocabulary: " + std::to_string(vocab.size()) + " entries from " +
                          std::to_string(counts.size()) + " types");
          return 0;
        }
        if (inventory_cmd->parsed()) {
          const auto train = read_keyed_cache(src_parse, src_parse_corpus);
          synmt::parse::SyntaxInventories inv;
          try {
            inv = synmt::parse::build_inventories(train);
          } catch (const std::invalid_argument& e) {
            throw synmt::InputError(src_parse, 0, e.what());
          }
          inv.labels.save(labels_out);
          inv.upos.save(upos_out);
          synmt::log_info("inventories: " + std::to_string(inv.labels.size()) + " labels, " + std::to_string(inv.upos.size()) +
                          " UPOS (with <unk>) from " + std::to_string(train.size()) + " sentences");
          return 0;
        }
        const bool with_syntax = !src_parse.empty();
        if (with_syntax && (src_labels.empty() || src_upos.empty()))
          throw synmt::ConfigError("--src-parse needs --src-labels and --src-upos (the pair's inventories, made from the training split)");
        const auto marks = synmt::parse::subword_marks_from_name(subwords);
        auto sv = synmt::Vocab::load(src_vocab_path);
        auto tv = synmt::Vocab::load(tgt_vocab_path);
        synmt::ParallelData data;
        synmt::parse::ParsedCorpus parses;
        synmt::parse::SyntaxInventories inv;
        synmt::parse::CacheIdMap ids;
        int64_t unknown_labels = 0, unknown_upos = 0;
        if (with_syntax) {
          parses = read_keyed_cache(src_parse, src_parse_corpus);
          inv = {synmt::parse::Inventory::load(src_labels), synmt::parse::Inventory::load(src_upos)};
          ids = synmt::parse::map_cache_ids(parses, inv);
          data.src_label_names = inv.labels.names();
          data.src_upos_names = inv.upos.names();
          if (!ids.unknown_labels.empty())
            synmt::log_warn(src_parse + ": labels not in " + src_labels + " (id 0 = <unk>): " + joined(ids.unknown_labels));
          if (!ids.unknown_upos.empty())
            synmt::log_warn(src_parse + ": UPOS not in " + src_upos + " (id 0 = <unk>): " + joined(ids.unknown_upos));
        }
        synmt::LineReader rs(src), rt(tgt);
        std::string a, b;
        while (synmt::next_pair(rs, rt, a, b)) {
          auto si = sv.encode(a), ti = tv.encode(b);
          if (si.empty()) rs.fail("empty sentence (clean the corpus first)");
          if (ti.empty()) rt.fail("empty sentence (clean the corpus first)");
          const auto pieces = synmt::split_nonempty(a, ' ');
          if (pieces.size() != si.size()) rs.fail("sub-word count differs from the vocabulary encoding");
          if (with_syntax) {  // sentence i of the cache belongs to this line
            synmt::parse::SourceSyntax s;
            try {
              s = synmt::parse::map_sentence_syntax(pieces, parses, data.size(), ids, marks);
            } catch (const std::invalid_argument& e) {
              rs.fail(std::string("does not match the parse cache ") + src_parse + ": " + e.what());
            }
            append(data.src_parent_middle, s.parent_middle);
            append(data.src_parent_first, s.parent_first);
            append(data.src_label, s.label);
            append(data.src_upos, s.upos);
            append(data.src_word, s.word);
            unknown_labels += s.unknown_label_words;
            unknown_upos += s.unknown_upos_words;
          } else {  // word spans need only the sub-word marks
            const auto spans = synmt::parse::word_spans(pieces, marks);
            for (std::size_t w = 0; w < spans.size(); ++w)
              data.src_word.insert(data.src_word.end(), static_cast<std::size_t>(spans[w].last - spans[w].first + 1), static_cast<int32_t>(w));
          }
          data.add(si, ti, synmt::unknown_forms_of(pieces, si));  // LGP-NMT's n-grams and UnkRep read them
        }
        if (with_syntax && data.size() != parses.size())
          throw synmt::InputError(src_parse, 0, "has " + std::to_string(parses.size()) + " sentences but " + src + " has " +
                                                    std::to_string(data.size()) + " lines");
        data.attributes = {{"src_vocab_sha256", sv.hash()},
                           {"tgt_vocab_sha256", tv.hash()},
                           {"src_sha256", synmt::sha256_file(src)},
                           {"tgt_sha256", synmt::sha256_file(tgt)},
                           {"codes_sha256", codes.empty() ? "" : synmt::sha256_file(codes)},
                           {"src_subwords", subwords},
                           {"tool_version", "synmt " SYNMT_VERSION}};
        if (with_syntax) {
          data.attributes["src_parse_parser_id"] = parses.parser_id;
          data.attributes["src_parse_corpus_sha256"] = parses.corpus_sha256;
          data.attributes[synmt::kSrcLabelInventoryAttr] = inv.labels.hash();
          data.attributes[synmt::kSrcLabelCountAttr] = std::to_string(inv.labels.size());
          data.attributes[synmt::kSrcUposInventoryAttr] = inv.upos.hash();
          data.attributes[synmt::kSrcUposCountAttr] = std::to_string(inv.upos.size());
          data.attributes["src_label_unknown_words"] = std::to_string(unknown_labels);
          data.attributes["src_upos_unknown_words"] = std::to_string(unknown_upos);
          if (unknown_labels + unknown_upos > 0)
            synmt::log_warn(output + ": " + std::to_string(unknown_labels) + " words with an unknown label, " + std::to_string(unknown_upos) +
                            " with an unknown UPOS (id 0)");
        }
        synmt::write_parallel_data(output, data);
        synmt::log_info("dataset " + output + ": " + std::to_string(data.size()) + " pairs");
        return 0;
      });
}
