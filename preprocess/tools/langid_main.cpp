// synmt-langid: langdetect-compatible language identification.
//   synmt-langid [--seed 0] [--profiles DIR] < lines        -> "LANG<TAB>PROB" per line
//   synmt-langid filter --src S --tgt T --src-lang en --tgt-lang de ...
//       keeps a pair only when the top language of each side is the expected one (Pascal's rule)
#include <cstdio>
#include <thread>

#include "core/atomic_file.h"
#include "core/config.h"
#include "core/line_reader.h"
#include "core/log.h"
#include "core/tool_main.h"
#include "preprocess/langid.h"

namespace {
// Labels a chunk of lines on `threads` threads; results keep the input order.
std::vector<synmt::LangGuess> label_chunk(const synmt::LanguageIdentifier& langid, const std::vector<std::string>& lines, int threads) {
  std::vector<synmt::LangGuess> out(lines.size());
  std::vector<std::thread> pool;
  const std::size_t n = static_cast<std::size_t>(std::max(1, threads));
  for (std::size_t t = 0; t < n; ++t)
    pool.emplace_back([&, t]() {
      for (std::size_t i = t; i < lines.size(); i += n) out[i] = langid.detect(lines[i]);
    });
  for (auto& th : pool) th.join();
  return out;
}
constexpr std::size_t kChunk = 20000;  // lines labelled at a time
}  // namespace

namespace {
// The tool's options.
struct LangidArgs {
  synmt::LangidOptions options;
  std::string input = "-", output = "-", src, tgt, src_lang, tgt_lang, out_src, out_tgt, report;
  CLI::App* filter = nullptr;
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
};

void declare(CLI::App& app, LangidArgs& cli) {
  app.description("Language identification with Python langdetect 1.0.9 semantics.");
  app.require_subcommand(0, 1);
  app.add_option("--seed", cli.options.seed, "RNG seed (langdetect's DetectorFactory.seed); -1 = random")->capture_default_str();
  app.add_option("--profiles", cli.options.profiles, "langdetect profile directory (default: python3-langdetect's)");
  app.add_option("-i,--input", cli.input, "lines to label ('-' = stdin)")->capture_default_str();
  app.add_option("-o,--output", cli.output, "labels ('-' = stdout)")->capture_default_str();
  app.add_option("--threads", cli.threads, "worker threads (lines are independent)")->capture_default_str();
  cli.filter = app.add_subcommand("filter", "keep the pairs whose sides are in the expected languages");
  cli.filter->add_option("--src", cli.src)->required();
  cli.filter->add_option("--tgt", cli.tgt)->required();
  cli.filter->add_option("--src-lang", cli.src_lang)->required();
  cli.filter->add_option("--tgt-lang", cli.tgt_lang)->required();
  cli.filter->add_option("--out-src", cli.out_src)->required();
  cli.filter->add_option("--out-tgt", cli.out_tgt)->required();
  cli.filter->add_option("--report", cli.report, "JSON report: pairs in, kept, dropped by reason")->required();
}

int run(LangidArgs& cli) {
  synmt::LanguageIdentifier langid(cli.options);
  std::string line;
  if (!cli.filter->parsed()) {
    synmt::LineReader in(cli.input);
    synmt::AtomicFile out(cli.output);
    char buf[64];
    std::vector<std::string> chunk;
    bool more = true;
    while (more) {
      chunk.clear();
      while (chunk.size() < kChunk && (more = in.next(line))) chunk.push_back(line);
      for (const auto& g : label_chunk(langid, chunk, cli.threads)) {
        std::snprintf(buf, sizeof buf, "\t%.6f", g.prob);
        out.write_line(g.lang + buf);
      }
    }
    out.commit();
    return 0;
  }
  synmt::LineReader rs(cli.src), rt(cli.tgt);
  synmt::AtomicFile os(cli.out_src), ot(cli.out_tgt);
  std::map<std::string, int64_t> dropped, src_langs, tgt_langs;
  int64_t pairs = 0, kept = 0;
  std::string a, b;
  synmt::Progress progress("langid filter");
  std::vector<std::string> sa, sb;
  bool more = true;
  while (more) {
    sa.clear();
    sb.clear();
    while (sa.size() < kChunk) {
      if (!(more = synmt::next_pair(rs, rt, a, b))) break;
      sa.push_back(a);
      sb.push_back(b);
    }
    auto la = label_chunk(langid, sa, cli.threads), lb = label_chunk(langid, sb, cli.threads);
    for (std::size_t i = 0; i < sa.size(); ++i) {
      ++pairs;
      ++src_langs[la[i].lang];
      ++tgt_langs[lb[i].lang];
      bool src_ok = la[i].lang == cli.src_lang, tgt_ok = lb[i].lang == cli.tgt_lang;
      if (src_ok && tgt_ok) {
        os.write_line(sa[i]);
        ot.write_line(sb[i]);
        ++kept;
      } else {
        ++dropped[!src_ok && !tgt_ok ? "both_sides_wrong_language" : !src_ok ? "source_wrong_language" : "target_wrong_language"];
      }
    }
    progress.advance(sa.size());
  }
  os.commit();
  ot.commit();
  synmt::Json j = {{"pairs_in", pairs}, {"kept", kept}, {"dropped", dropped}, {"source_languages", src_langs},
                   {"target_languages", tgt_langs}, {"expected", {{"source", cli.src_lang}, {"target", cli.tgt_lang}}},
                   {"seed", cli.options.seed}};
  synmt::write_file_atomically(cli.report, j.dump(2) + "\n");
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  LangidArgs cli;
  return synmt::run_tool(
      "synmt-langid", argc, argv,
      [&](CLI::App& app) { declare(app, cli); }, [&]() { return run(cli); });
}
