// synmt-binarize: build vocabularies and turn (BPE-segmented) parallel text into HDF5 datasets.
#include "core/line_reader.h"
#include "core/log.h"
#include "core/sha256.h"
#include "core/tool_main.h"
#include "preprocess/dataset_file.h"
#include "preprocess/vocab.h"
#include "synmt/version.h"

int main(int argc, char** argv) {
  std::vector<std::string> vocab_inputs;
  std::string output, src, tgt, src_vocab_path, tgt_vocab_path, codes;
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
          data.add(si, ti);
        }
        data.attributes = {{"src_vocab_sha256", sv.hash()},
                           {"tgt_vocab_sha256", tv.hash()},
                           {"src_sha256", synmt::sha256_file(src)},
                           {"tgt_sha256", synmt::sha256_file(tgt)},
                           {"codes_sha256", codes.empty() ? "" : synmt::sha256_file(codes)},
                           {"tool_version", "synmt " SYNMT_VERSION}};
        synmt::write_parallel_data(output, data);
        synmt::log_info("dataset " + output + ": " + std::to_string(data.size()) + " pairs");
        return 0;
      });
}
