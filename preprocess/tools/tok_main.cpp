// synmt-tok: Moses-style tokenisation (tokenizer.perl flags: -l LANG, -a, -no-escape), or
// detokenisation with --detok. Reads stdin (or --input), writes stdout (or --output).
#include <cstring>
#include <thread>

#include "core/atomic_file.h"
#include "core/line_reader.h"
#include "core/log.h"
#include "core/parallel_lines.h"
#include "core/tool_main.h"
#include "core/mecab_tokenizer.h"
#include "preprocess/punct_normalizer.h"
#include "preprocess/tokenizer.h"

namespace {
// The tool's options.
struct TokArgs {
  synmt::TokenizerOptions options;
  bool no_escape = false, detok = false, normalize = false, normalize_only = false, skip_invalid = false,
       sacremoses = false;
  std::string input = "-", output = "-", mecab_dicdir;
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
};

void declare(CLI::App& app, TokArgs& a) {
  app.description("Moses tokenizer.perl-compatible tokeniser; --detok for detokenizer.perl.");
  app.add_option("-l,--lang", a.options.lang, "language code")->capture_default_str();
  app.add_flag("-a,--aggressive-dash-splits", a.options.aggressive_dash_splits, "split hyphens as @-@");
  app.add_flag("--no-escape", a.no_escape, "do not escape XML special characters");
  app.add_flag("--detok", a.detok, "detokenise instead");
  app.add_flag("--sacremoses", a.sacremoses,
               "sacremoses' rule for the line's last word (keep non-breaking prefixes) instead of tokenizer.perl's");
  app.add_flag("--normalize-punctuation", a.normalize, "normalize-punctuation.perl before tokenising");
  app.add_flag("--skip-invalid", a.skip_invalid,
               "drop lines with invalid UTF-8 (counted on stderr) instead of failing; changes line counts");
  app.add_flag("--normalize-only", a.normalize_only, "only normalize-punctuation.perl (no tokenisation)");
  app.add_option("--prefix-dir", a.options.prefix_dir, "directory with nonbreaking_prefix.LANG files");
  app.add_option("--mecab-dicdir", a.mecab_dicdir, "-l ja: IPAdic directory (default: MeCab's)");
  app.add_option("-i,--input", a.input, "input file (plain or .gz; '-' = stdin)");
  app.add_option("-o,--output", a.output, "output file ('-' = stdout; written atomically)");
  app.add_option("--threads", a.threads, "worker threads (output order is kept)")->capture_default_str();
}

int run(TokArgs& a) {
  a.options.escape = !a.no_escape;
  a.options.split_final_period = !a.sacremoses;
  synmt::LineReaderOptions ro;
  ro.flag_invalid = a.skip_invalid;
  synmt::LineReader in(a.input, ro);
  synmt::AtomicFile out(a.output);
  struct ReportInvalid {  // runs however the tool returns
    const synmt::LineReader& in;
    ~ReportInvalid() {
      if (in.invalid_lines() > 0)
        synmt::log_warn(in.path() + ": dropped " + std::to_string(in.invalid_lines()) + " line(s) with invalid UTF-8");
    }
  } report{in};
  if (a.normalize_only) {
    synmt::PunctNormalizer n(a.options.lang);
    synmt::map_lines_in_order(in, out, a.threads, [&n](const std::string& l) { return n.normalize(l); });
    out.commit();
    return 0;
  }
  if (a.options.lang == "ja" && !a.detok) {  // Japanese: MeCab segmentation instead of Moses rules
    synmt::mecab_wakati("", a.mecab_dicdir);
    synmt::map_lines_in_order(in, out, a.threads, [&](const std::string& l) { return synmt::mecab_wakati(l, a.mecab_dicdir); });
    out.commit();
    return 0;
  }
  if (a.detok) {
    synmt::MosesDetokenizer d(a.options.lang);
    synmt::map_lines_in_order(in, out, a.threads, [&d](const std::string& l) { return d.detokenize(l); });
  } else {
    synmt::MosesTokenizer t(a.options);
    synmt::PunctNormalizer n(a.options.lang);
    synmt::map_lines_in_order(in, out, a.threads, [&](const std::string& l) {
      return t.tokenize(a.normalize ? n.normalize(l) : l);
    });
  }
  out.commit();
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  // tokenizer.perl spells its long flags with one dash; accept those spellings too.
  std::vector<std::string> args(argv, argv + argc);
  for (auto& a : args)
    if (a == "-no-escape" || a == "-detok" || a == "-threads") a = "-" + a;
  std::vector<char*> fixed;
  for (auto& a : args) fixed.push_back(a.data());
  TokArgs a;
  return synmt::run_tool(
      "synmt-tok", static_cast<int>(fixed.size()), fixed.data(),
      [&](CLI::App& app) { declare(app, a); }, [&]() { return run(a); });
}
