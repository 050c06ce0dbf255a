// synmt-score: corpus-level translation metrics. `bleu` follows sacreBLEU 2.x.
#include <cstdio>

#include "core/config.h"
#include "core/line_reader.h"
#include "core/tool_main.h"
#include "eval/bleu.h"

namespace {
std::vector<std::string> read_segments(const std::string& path) {
  std::vector<std::string> lines = synmt::read_lines(path);
  if (lines.empty()) throw synmt::InputError(path, 0, "empty file");
  return lines;
}
}  // namespace

int main(int argc_in, char** argv_in) {
  // sacreBLEU spells lower-casing "-lc", which CLI11 cannot declare as a short option
  std::vector<std::string> args(argv_in, argv_in + argc_in);
  for (auto& a : args)
    if (a == "-lc") a = "--lowercase";
  std::vector<char*> argv_fixed;
  for (auto& a : args) argv_fixed.push_back(a.data());
  int argc = static_cast<int>(argv_fixed.size());
  char** argv = argv_fixed.data();
  synmt::eval::BleuOptions options;
  std::vector<std::string> ref_paths;
  std::string hyp_path = "-", format = "text";
  int width = 1;
  CLI::App* bleu = nullptr;
  return synmt::run_tool(
      "synmt-score", argc, argv,
      [&](CLI::App& app) {
        app.description("Translation metrics with sacreBLEU semantics.");
        app.require_subcommand(1);
        bleu = app.add_subcommand("bleu", "corpus BLEU");
        bleu->add_option("-r,--ref", ref_paths, "reference file (repeat for several references)")->required();
        bleu->add_option("hyp", hyp_path, "hypothesis file ('-' = stdin)")->capture_default_str();
        bleu->add_option("-t,--tokenize", options.tokenize, "13a | none")->capture_default_str();
        bleu->add_option("-s,--smooth-method", options.smooth, "exp | floor | add-k | none")->capture_default_str();
        bleu->add_option("--smooth-value", options.smooth_value, "for floor / add-k");
        bleu->add_flag("--lowercase", options.lowercase, "also spelled -lc, as in sacreBLEU");
        bleu->add_flag("--effective-order", options.effective_order);
        bleu->add_option("-f,--format", format, "text | json")->capture_default_str();
        bleu->add_option("-w,--width", width, "decimals in text output")->capture_default_str();
      },
      [&]() {
        std::vector<std::string> hyps = read_segments(hyp_path);
        std::vector<std::vector<std::string>> refs;
        for (const auto& p : ref_paths) {
          refs.push_back(read_segments(p));
          if (refs.back().size() != hyps.size())
            throw synmt::InputError(p, 0, "reference has " + std::to_string(refs.back().size()) +
                                              " lines but the hypothesis " + hyp_path + " has " + std::to_string(hyps.size()));
        }
        synmt::eval::Bleu metric(options);
        auto r = metric.corpus_score(hyps, refs);
        std::string sig = metric.signature(refs.size());
        if (format == "json") {
          synmt::Json j;
          j["name"] = "BLEU";
          j["score"] = r.score;
          j["signature"] = sig;
          j["counts"] = r.stats.correct;
          j["totals"] = r.stats.total;
          j["precisions"] = r.precisions;
          j["bp"] = r.bp;
          j["sys_len"] = r.stats.sys_len;
          j["ref_len"] = r.stats.ref_len;
          std::printf("%s\n", j.dump(1).c_str());
        } else {
          std::printf("BLEU|%s = %.*f %.1f/%.1f/%.1f/%.1f (BP = %.3f ratio = %.3f hyp_len = %lld ref_len = %lld)\n",
                      sig.c_str(), width, r.score, r.precisions[0], r.precisions[1], r.precisions[2], r.precisions[3],
                      r.bp, r.stats.ref_len ? double(r.stats.sys_len) / r.stats.ref_len : 0.0,
                      static_cast<long long>(r.stats.sys_len), static_cast<long long>(r.stats.ref_len));
        }
        return 0;
      });
}
