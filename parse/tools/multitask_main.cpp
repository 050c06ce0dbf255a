// synmt-multitask: the +C&H baseline's multi-task data (Currey & Heafield 2019 as in Pascal, with a
// dependency bracketing in place of their constituency linearisation; parse/linearise.h).
//   parse-task: the training mix "<TR> src <TR>" -> tgt plus "<PA> src <PA>" -> bracketing(src)
//   tag:        "<TR> line <TR>" (validation and test sources: the translation task only)
#include <nlohmann/json.hpp>

#include "core/atomic_file.h"
#include "core/log.h"
#include "core/tool_main.h"
#include "parse/linearise.h"

int main(int argc, char** argv) {
  std::string src, tgt, parse, out_src, out_tgt, report, in, out;
  CLI::App* parse_task = nullptr;
  CLI::App* tag = nullptr;
  return synmt::run_tool(
      "synmt-multitask", argc, argv,
      [&](CLI::App& app) {
        app.description("Multi-task data for the +C&H baseline: translation and linearised-parse pairs, tagged.");
        app.require_subcommand(1);
        parse_task = app.add_subcommand("parse-task", "training mix: <TR> pairs, then <PA> src -> dependency bracketing");
        parse_task->add_option("--src", src, "tokenised (cleaned) source")->required();
        parse_task->add_option("--tgt", tgt, "tokenised (cleaned) target")->required();
        parse_task->add_option("--parse", parse, "the source's parse cache (synmt-parse)")->required();
        parse_task->add_option("--out-src", out_src)->required();
        parse_task->add_option("--out-tgt", out_tgt)->required();
        parse_task->add_option("--report", report, "JSON counts");
        tag = app.add_subcommand("tag", "wrap every line in <TR> ... <TR>");
        tag->add_option("-i,--input", in)->required();
        tag->add_option("-o,--output", out)->required();
      },
      [&]() {
        if (*tag) {
          const auto n = synmt::parse::write_translation_tagged(in, out);
          synmt::log_info(out + ": " + std::to_string(n) + " lines tagged " + synmt::parse::kTranslateTag);
          return 0;
        }
        const auto c = synmt::parse::write_parse_multitask(src, tgt, parse, out_src, out_tgt);
        synmt::log_info(out_src + ": " + std::to_string(c.written) + " pairs (" + std::to_string(c.pairs) + " translation, " +
                        std::to_string(c.pairs) + " parse; " + std::to_string(c.words) + " source words linearised)");
        if (!report.empty())
          synmt::write_file_atomically(
              report, nlohmann::json{{"translation_pairs", c.pairs}, {"parse_pairs", c.pairs}, {"lines", c.written}, {"words", c.words}}.dump(2) + "\n");
        return 0;
      });
}
