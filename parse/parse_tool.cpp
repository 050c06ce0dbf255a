#include "parse/parse_tool.h"

#include <algorithm>
#include <filesystem>

#include "core/log.h"
#include "core/sha256.h"
#include "core/tool_main.h"
#include "parse/backends.h"

namespace synmt::parse {

int run_parse_tool(int argc, char** argv, const std::vector<ParserBackend>& extra_backends) {
  std::string backend, corpus, output, conllu, model;
  synmt::parse::CoreNlpOptions corenlp;
  bool force = false;
  std::string export_conllu;
  return synmt::run_tool(
      "synmt-parse", argc, argv,
      [&](CLI::App& app) {
        app.description("Parse a tokenised corpus (one sentence per line) into a parse cache (HDF5).");
        app.add_option("--backend", backend, "builtin | corenlp | conllu")->required()->check(CLI::IsMember({"builtin", "corenlp", "conllu"}));
        app.add_option("--model", model, "builtin backend: parser.pt from synmt-parser-train");
        app.add_option("-i,--corpus", corpus, "tokenised corpus, one sentence per line")->required();
        app.add_option("-o,--output", output, "parse cache (HDF5)")->required();
        app.add_option("--conllu", conllu, "conllu backend: parses made elsewhere, one sentence per corpus line");
        app.add_option("--url", corenlp.url, "corenlp backend: server URL")->capture_default_str();
        app.add_option("--batch-lines", corenlp.batch_lines, "corenlp: lines per request")->capture_default_str();
        app.add_option("--timeout", corenlp.timeout_seconds, "corenlp: seconds per request")->capture_default_str();
        app.add_option("--retries", corenlp.retries, "corenlp: retries after a failed request")->capture_default_str();
        app.add_option("--backoff", corenlp.backoff_seconds, "corenlp: first retry delay in seconds (doubles)")->capture_default_str();
        app.add_option("--model-tag", corenlp.model_tag, "corenlp: version/model name, part of the cache key")->capture_default_str();
        app.add_flag("--force", force, "rebuild even when the cache matches");
        app.add_option("--export-conllu", export_conllu, "also write the cached parses with the corpus tokens as CoNLL-U");
      },
      [&]() {
        if (backend == "conllu" && conllu.empty()) throw synmt::ConfigError("--backend conllu needs --conllu FILE");
        if (backend == "builtin" && model.empty()) throw synmt::ConfigError("--backend builtin needs --model parser.pt");
        const auto extra = std::find_if(extra_backends.begin(), extra_backends.end(),
                                        [&](const ParserBackend& b) { return b.name == backend; });
        if (backend == "builtin" && extra == extra_backends.end())
          throw synmt::ConfigError("this synmt-parse was built without LibTorch: no builtin backend");
        if (!force && std::filesystem::exists(output)) {
          // the key this run would write; reuse the cache when it is intact and has that key
          const std::string key = backend == "conllu"    ? "conllu:" + synmt::sha256_file(conllu)
                                  : extra != extra_backends.end() ? extra->parser_id(model)
                                                         : std::string();
          auto existing = synmt::parse::parse_cache_matches(output, synmt::sha256_file(corpus), key);
          if (existing && (backend != "corenlp" || synmt::parse::read_parse_cache(output, "", "").parser_id.rfind(
                                                      "corenlp:" + corenlp.model_tag + ":", 0) == 0)) {
            synmt::log_info(output + ": cache matches the corpus and the parser; reused");
            if (!export_conllu.empty())
              synmt::parse::export_conllu(corpus, synmt::parse::read_parse_cache(output, "", ""), export_conllu);
            return 0;
          }
          synmt::log_info(output + ": exists but does not match (or is damaged); rebuilding");
        }
        synmt::parse::ParsedCorpus parses;
        if (backend == "conllu") parses = synmt::parse::import_conllu(corpus, conllu);
        else if (backend == "corenlp") parses = synmt::parse::parse_with_corenlp(corpus, corenlp);
        else parses = extra->parse(corpus, model);
        synmt::parse::write_parse_cache(output, parses);
        if (!export_conllu.empty()) synmt::parse::export_conllu(corpus, parses, export_conllu);
        synmt::log_info(output + ": " + std::to_string(parses.size()) + " sentences, " + std::to_string(parses.heads.size()) +
                        " words, parser " + parses.parser_id);
        return 0;
      });
}

}  // namespace synmt::parse
