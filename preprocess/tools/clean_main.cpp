// synmt-clean: clean-corpus-n filtering of a parallel corpus with a JSON report of every drop.
#include "core/atomic_file.h"
#include "core/config.h"
#include "core/line_reader.h"
#include "core/log.h"
#include "core/tool_main.h"
#include "preprocess/clean.h"

int main(int argc, char** argv) {
  std::string src, tgt, out_src, out_tgt, report;
  synmt::CleanOptions options;
  bool skip_invalid = false;
  return synmt::run_tool(
      "synmt-clean", argc, argv,
      [&](CLI::App& app) {
        app.description("Drop empty pairs, pairs outside [min,max] tokens, and pairs above a length ratio.");
        app.add_option("--src", src, "source side")->required();
        app.add_option("--tgt", tgt, "target side")->required();
        app.add_option("--out-src", out_src)->required();
        app.add_option("--out-tgt", out_tgt)->required();
        app.add_option("--report", report, "JSON report of counts")->required();
        app.add_option("--min", options.min_tokens, "minimum tokens per side")->capture_default_str();
        app.add_option("--max", options.max_tokens, "maximum tokens per side")->capture_default_str();
        app.add_option("--ratio", options.max_ratio, "maximum length ratio")->capture_default_str();
        app.add_flag("--dedupe", options.dedupe, "drop exact duplicate pairs");
        app.add_flag("--skip-invalid", skip_invalid, "drop pairs with invalid UTF-8 (counted) instead of failing");
      },
      [&]() {
        synmt::LineReaderOptions ro;
        ro.flag_invalid = skip_invalid;
        synmt::LineReader rs(src, ro), rt(tgt, ro);
        int64_t invalid_pairs = 0;
        synmt::AtomicFile os(out_src), ot(out_tgt);
        synmt::CorpusCleaner cleaner(options);
        synmt::Progress progress("clean");
        std::string a, b;
        for (;;) {
          if (!synmt::next_pair(rs, rt, a, b)) break;
          if (rs.last_line_invalid() || rt.last_line_invalid()) {
            ++invalid_pairs;
            progress.advance();
            continue;
          }
          if (cleaner.keep(a, b)) {
            os.write_line(a);
            ot.write_line(b);
          }
          progress.advance();
        }
        synmt::Json j;
        j["pairs_in"] = cleaner.seen() + invalid_pairs;
        j["kept"] = cleaner.kept();
        j["dropped"] = cleaner.dropped();
        if (invalid_pairs > 0) j["dropped"]["invalid_utf8"] = invalid_pairs;
        j["options"] = {{"min", options.min_tokens}, {"max", options.max_tokens}, {"ratio", options.max_ratio},
                        {"dedupe", options.dedupe}};
        os.commit();
        ot.commit();
        synmt::write_file_atomically(report, j.dump(2) + "\n");
        return 0;
      });
}
