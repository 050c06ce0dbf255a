// synmt-binarize: build vocabularies and turn (BPE-segmented) parallel text into HDF5 datasets.
#include "core/line_reader.h"
#include "core/log.h"
#include "core/sha256.h"
#include "core/tool_main.h"
#include "preprocess/dataset_file.h"
#include "parse/parse_cache.h"
#include "parse/subword_mapping.h"
#include "preprocess/vocab.h"
#include "synmt/version.h"

int main(int argc, char** argv) {
  std::vector<std::string> vocab_inputs;
  std::string output, src, tgt, src_vocab_path, tgt_vocab_path, codes, src_parse, src_parse_corpus, subwords = "bpe";
  synmt::VocabOptions vocab_options;
  CLI::App* vocab_cmd = nullptr;
  CLI::App* data_cmd = nullptr;
  return synmt::run_tool(
      "synmt-binarize", argc, argv,
      [&](CLI::App& app) {
        app.description("Vocabularies and HDF5 datasets (token ids + offsets + provenance).");
        app.require_subcommand(1);
        vocab_cmd = app.add_subcommand("vocab", "count tokens and write a vocabulary");
        vocab_cmd->add_option("-i,--input", vocab_inputs, "text file(s); several give a joint vocabulary")->required();
        vocab_cmd->add_option("--min-frequency", vocab_options.min_frequency)->capture_default_str();
        vocab_cmd->add_option("--max-size", vocab_options.max_size, "0 = unlimited")->capture_default_str();
        vocab_cmd->add_option("-o,--output", output)->required();
        data_cmd = app.add_subcommand("data", "write one split as an HDF5 dataset");
        data_cmd->add_option("--src", src)->required();
        data_cmd->add_option("--tgt", tgt)->required();
        data_cmd->add_option("--src-vocab", src_vocab_path)->required();
        data_cmd->add_option("--tgt-vocab", tgt_vocab_path)->required();
        data_cmd->add_option("--codes", codes, "BPE codes used (recorded as provenance)");
        data_cmd->add_option("-o,--output", output)->required();
        data_cmd->add_option("--src-parse", src_parse, "parse cache of the source side: adds parent positions, labels, word spans");
        data_cmd->add_option("--src-parse-corpus", src_parse_corpus, "the tokenised text the cache was made from (its key is checked)");
        data_cmd->add_option("--subwords", subwords, "bpe ('@@ ' joins) | spm (U+2581 starts a word): how sub-words form words")
            ->capture_default_str()
            ->check(CLI::IsMember({"bpe", "spm"}));
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
        auto sv = synmt::Vocab::load(src_vocab_path);
        auto tv = synmt::Vocab::load(tgt_vocab_path);
        synmt::ParallelData data;
        synmt::parse::ParsedCorpus parses;
        if (!src_parse.empty()) {
          if (src_parse_corpus.empty()) throw synmt::ConfigError("--src-parse needs --src-parse-corpus (the cache's key is checked)");
          parses = synmt::parse::read_parse_cache(src_parse, synmt::sha256_file(src_parse_corpus), "");
          data.src_label_names = parses.label_names;
        }
        synmt::LineReader rs(src), rt(tgt);
        std::string a, b;
        for (;;) {
          bool ha = rs.next(a), hb = rt.next(b);
          if (ha != hb) {
            const auto& shorter = ha ? rt : rs;
            throw synmt::InputError(shorter.path(), shorter.line_number(), "parallel files differ in length");
          }
          if (!ha) break;
          auto si = sv.encode(a), ti = tv.encode(b);
          if (si.empty()) rs.fail("empty sentence (clean the corpus first)");
          if (ti.empty()) rt.fail("empty sentence (clean the corpus first)");
          if (!src_parse.empty()) {  // sentence i of the cache belongs to this line
            const std::size_t i = data.size();
            if (i >= parses.size()) rs.fail("the parse cache " + src_parse + " has only " + std::to_string(parses.size()) + " sentences");
            std::vector<std::string> pieces;
            for (std::size_t b0 = 0; b0 < a.size();) {
              std::size_t e = a.find(' ', b0);
              if (e == std::string::npos) e = a.size();
              if (e > b0) pieces.push_back(a.substr(b0, e - b0));
              b0 = e + 1;
            }
            auto spans = subwords == "spm" ? synmt::parse::word_spans_from_spm(pieces) : synmt::parse::word_spans_from_bpe(pieces);
            synmt::parse::SubwordTree tree;
            try {
              tree = synmt::parse::map_tree_to_subwords(spans, parses.sentence_heads(i), parses.sentence_labels(i));
            } catch (const std::invalid_argument& e) {
              rs.fail(std::string("does not match the parse cache ") + src_parse + ": " + e.what());
            }
            if (tree.parent_middle.size() != si.size()) rs.fail("sub-word count differs from the vocabulary encoding");
            data.src_parent_middle.insert(data.src_parent_middle.end(), tree.parent_middle.begin(), tree.parent_middle.end());
            data.src_parent_first.insert(data.src_parent_first.end(), tree.parent_first.begin(), tree.parent_first.end());
            data.src_label.insert(data.src_label.end(), tree.label.begin(), tree.label.end());
            data.src_word.insert(data.src_word.end(), tree.word.begin(), tree.word.end());
          }
          data.add(si, ti);
        }
        if (!src_parse.empty() && data.size() != parses.size())
          throw synmt::InputError(src_parse, 0, "has " + std::to_string(parses.size()) + " sentences but " + src + " has " +
                                                    std::to_string(data.size()) + " lines");
        data.attributes = {{"src_vocab_sha256", sv.hash()},
                           {"tgt_vocab_sha256", tv.hash()},
                           {"src_sha256", synmt::sha256_file(src)},
                           {"tgt_sha256", synmt::sha256_file(tgt)},
                           {"codes_sha256", codes.empty() ? "" : synmt::sha256_file(codes)},
                           {"tool_version", "synmt " SYNMT_VERSION}};
        if (!src_parse.empty()) data.attributes["src_parse_parser_id"] = parses.parser_id;
        synmt::write_parallel_data(output, data);
        synmt::log_info("dataset " + output + ": " + std::to_string(data.size()) + " pairs");
        return 0;
      });
}
