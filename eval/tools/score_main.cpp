// synmt-score: corpus-level translation metrics with sacreBLEU semantics.
//   bleu      corpus BLEU            chrf      chrF / chrF++       ribes  RIBES 1.03.1
//   paired-bs paired bootstrap resampling of any number of systems against a baseline
//   paired-ar approximate randomisation, the same comparison
// The metrics and the resampling are in eval/; this file reads options and files and prints.
#include <cmath>
#include <cstdio>
#include <optional>
#include <exception>
#include <thread>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "core/atomic_file.h"
#include "core/config.h"
#include "core/line_reader.h"
#include "core/tool_main.h"
#include "core/utf8.h"
#include "eval/bleu.h"
#include "eval/chrf.h"
#include "eval/length_buckets.h"
#include "eval/paired_metric.h"
#include "eval/ribes.h"
#include "eval/significance.h"

namespace {
std::vector<std::string> read_segments(const std::string& path) {
  std::vector<std::string> lines = synmt::read_lines(path);
  if (lines.empty()) throw synmt::InputError(path, 0, "empty file");
  return lines;
}

std::vector<std::vector<std::string>> read_references(const std::vector<std::string>& paths, std::size_t n,
                                                      const std::string& hyp_path) {
  std::vector<std::vector<std::string>> refs;
  for (const auto& p : paths) {
    refs.push_back(read_segments(p));
    if (refs.back().size() != n)
      throw synmt::InputError(p, 0, "reference has " + std::to_string(refs.back().size()) + " lines but the hypothesis " +
                                        hyp_path + " has " + std::to_string(n));
  }
  return refs;
}

// The systems' outputs, read on `threads` threads: reading was a serial tenth of a paired-bs run.
std::vector<std::vector<std::string>> read_systems(const std::vector<std::string>& names, int threads) {
  std::vector<std::vector<std::string>> outputs(names.size());
  std::vector<std::thread> readers;
  std::vector<std::exception_ptr> errors(names.size());
  const std::size_t nthreads = static_cast<std::size_t>(std::max(1, threads));
  for (std::size_t t = 0; t < nthreads; ++t)
    readers.emplace_back([&, t]() {
      for (std::size_t i = t; i < names.size(); i += nthreads) {
        try {
          outputs[i] = read_segments(names[i]);
        } catch (...) {
          errors[i] = std::current_exception();
        }
      }
    });
  for (auto& r : readers) r.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  return outputs;
}

// sacreBLEU spells some flags with one dash and several letters, which CLI11 cannot declare.
std::vector<std::string> normalise_args(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  for (auto& a : args) {
    if (a == "-lc") a = "--lowercase";
    if (a == "-nc") a = "--char-order";
    if (a == "-nw") a = "--word-order";
  }
  return args;
}

// The options of every subcommand (sacreBLEU's names where it has them).
struct ScoreArgs {
  synmt::eval::BleuOptions bleu_options;
  synmt::eval::ChrfOptions chrf_options;
  synmt::eval::RibesOptions ribes_options;
  bool sentence_level = false, multi_bleu = false;
  std::string src_path, bucket_spec = "10,20,30,40,50", sentence_path;
  std::vector<std::string> ref_paths, systems;
  std::string hyp_path = "-", format = "text", baseline, metric = "bleu", indices_path, dump_path;
  int width = 1, samples = 1000, threads = 2;
  uint64_t seed = 12345;
  std::size_t runs = 1;  // paired-bs: the outputs are this many runs' outputs of the test set, one after another
  std::string selections_path;
  int trials = 10000;
};

struct Subcommands {
  CLI::App *bleu = nullptr, *chrf = nullptr, *paired = nullptr, *ribes = nullptr, *paired_ar = nullptr;
};

void add_bleu_flags(CLI::App* c, ScoreArgs& a) {
  c->add_option("-t,--tokenize", a.bleu_options.tokenize, "13a | intl | zh | char | none | ja-mecab")->capture_default_str();
  c->add_option("--mecab-dicdir", a.bleu_options.mecab_dicdir, "IPAdic directory for ja-mecab (default: MeCab's)");
  c->add_option("-s,--smooth-method", a.bleu_options.smooth, "exp | floor | add-k | none")->capture_default_str();
  c->add_option("--smooth-value", a.bleu_options.smooth_value, "for floor / add-k");
  c->add_flag("--effective-order", a.bleu_options.effective_order);
  // sacreBLEU refuses input that looks tokenised unless --force; synmt scores it and says nothing,
  // so the flag is accepted for command-line compatibility only.
  c->add_flag("--force", "accepted for sacreBLEU compatibility (synmt never refuses tokenised input)");
}
void add_chrf_flags(CLI::App* c, ScoreArgs& a) {
  c->add_option("--char-order", a.chrf_options.char_order, "also -nc")->capture_default_str();
  c->add_option("--word-order", a.chrf_options.word_order, "also -nw; 2 = chrF++")->capture_default_str();
  c->add_option("--beta", a.chrf_options.beta)->capture_default_str();
  c->add_flag("--whitespace", a.chrf_options.whitespace);
  c->add_flag("--eps-smoothing", a.chrf_options.eps_smoothing);
}
void add_ribes_flags(CLI::App* c, ScoreArgs& a) {
  c->add_option("--alpha", a.ribes_options.alpha, "precision exponent")->capture_default_str();
  c->add_option("--beta", a.ribes_options.beta, "brevity penalty exponent")->capture_default_str();
  c->add_flag("--case-sensitive", a.ribes_options.case_sensitive, "RIBES.py -c: do not lower-case");
  c->add_flag("--allow-empty-reference", a.ribes_options.allow_empty_reference, "RIBES.py -z");
  c->add_option("-t,--tokenize", a.ribes_options.tokenize,
                "segment hypothesis and reference first: none (as given) | ja-mecab | 13a | intl | zh | char")
      ->capture_default_str();
  c->add_option("--mecab-dicdir", a.ribes_options.mecab_dicdir, "IPAdic directory for ja-mecab (default: MeCab's)");
}

// Every subcommand and its options; `a` receives the values.
Subcommands declare(CLI::App& app, ScoreArgs& a) {
  CLI::App *bleu = nullptr, *chrf = nullptr, *paired = nullptr, *ribes = nullptr, *paired_ar = nullptr;
  app.description("Translation metrics with sacreBLEU semantics.");
  app.require_subcommand(1);
  for (auto* c : {bleu = app.add_subcommand("bleu", "corpus BLEU"), chrf = app.add_subcommand("chrf", "chrF / chrF++"),
                  ribes = app.add_subcommand("ribes", "RIBES 1.03.1 (score in [0,1])"),
                  paired = app.add_subcommand("paired-bs", "paired bootstrap resampling against a baseline"),
                  paired_ar = app.add_subcommand("paired-ar", "approximate randomisation against a baseline")}) {
    c->add_option("-r,--ref", a.ref_paths, "reference file (repeat -r for several references)")
        ->required()
        ->expected(1)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);  // one path per -r, so HYP stays positional
    c->add_flag("--lowercase", c == chrf ? a.chrf_options.lowercase : a.bleu_options.lowercase, "also -lc");
    c->add_option("-f,--format", a.format, "text | json")->capture_default_str();
  }
  bleu->add_option("hyp", a.hyp_path, "hypothesis file ('-' = stdin)")->capture_default_str();
  bleu->add_option("-w,--width", a.width, "decimals in text output")->capture_default_str();
  bleu->add_flag("--multi-bleu", a.multi_bleu,
                 "tokenised BLEU as multi-bleu.perl computes and prints it (implies --tokenize none --smooth-method none)");
  bleu->add_option("--buckets-src", a.src_path, "source file: also report BLEU by source length (words)");
  bleu->add_option("--sentence-scores", a.sentence_path,
                   "write sentence BLEU (sacreBLEU sentence_score: effective order) per line to this file");
  bleu->add_option("--buckets", a.bucket_spec, "upper bounds of the source-length buckets")->capture_default_str();
  add_bleu_flags(bleu, a);
  chrf->add_option("hyp", a.hyp_path, "hypothesis file ('-' = stdin)")->capture_default_str();
  add_chrf_flags(chrf, a);
  ribes->add_option("hyp", a.hyp_path, "hypothesis file ('-' = stdin)")->capture_default_str();
  ribes->add_flag("--sentence", a.sentence_level, "print per-sentence scores too");
  add_ribes_flags(ribes, a);
  paired->add_option("--baseline", a.baseline, "baseline system output")->required();
  paired->add_option("systems", a.systems, "system outputs compared with the baseline")->required();
  paired->add_option("-m,--metric", a.metric, "bleu | chrf | ribes")->capture_default_str();
  paired->add_option("--samples", a.samples, "number of resamples")->capture_default_str();
  paired->add_option("--seed", a.seed, "RNG seed for the resamples")->capture_default_str();
  paired->add_option("--indices", a.indices_path, "replay resamples: one line of segment indices per resample");
  paired->add_option("--runs", a.runs,
                     "the outputs are N runs' outputs of one test set, concatenated (the reference repeated N times): "
                     "a resample draws test sentences and keeps every run's line of each")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  paired->add_option("--threads", a.threads)->capture_default_str();
  paired->add_option("--resample-scores", a.dump_path, "write every resample's score: one line per system");
  add_bleu_flags(paired, a);
  add_chrf_flags(paired, a);
  paired_ar->add_option("--baseline", a.baseline, "baseline system output")->required();
  paired_ar->add_option("systems", a.systems, "system outputs compared with the baseline")->required();
  paired_ar->add_option("-m,--metric", a.metric, "bleu | chrf | ribes")->capture_default_str();
  paired_ar->add_option("--trials", a.trials, "number of randomisation trials")->capture_default_str();
  paired_ar->add_option("--seed", a.seed)->capture_default_str();
  paired_ar->add_option("--selections", a.selections_path, "replay trials: one line of 0/1 per trial");
  paired_ar->add_option("--threads", a.threads)->capture_default_str();
  add_bleu_flags(paired_ar, a);
  add_chrf_flags(paired_ar, a);
  paired->add_option("--ribes-alpha", a.ribes_options.alpha)->capture_default_str();
  paired->add_option("--ribes-beta", a.ribes_options.beta)->capture_default_str();
  for (auto* c : {paired, paired_ar})
    c->add_option("--ribes-tokenize", a.ribes_options.tokenize, "--metric ribes: as ribes --tokenize")
        ->capture_default_str();
  return {bleu, chrf, paired, ribes, paired_ar};
}

// RIBES of one hypothesis file (RIBES.py 1.03.1's corpus score: the mean of the sentence scores).
int run_ribes(const ScoreArgs& a) {
  auto hyps = read_segments(a.hyp_path);
  auto refs = read_references(a.ref_paths, hyps.size(), a.hyp_path);
  synmt::eval::Ribes m(a.ribes_options);
  std::vector<std::optional<double>> sentences;
  try {
    sentences = m.sentence_scores(hyps, refs);
  } catch (const std::invalid_argument& e) {
    throw synmt::InputError(a.ref_paths.front(), 0, e.what());
  }
  double acc = 0;
  std::size_t valid = 0;
  for (const auto& v : sentences)
    if (v) acc += *v, ++valid;
  if (valid == 0) throw synmt::InputError(a.ref_paths.front(), 0, "no sentence has a non-empty reference");
  double score = acc / static_cast<double>(valid);
  if (a.format == "json") {
    synmt::Json j = {{"name", "RIBES"}, {"score", score}, {"signature", m.signature(refs.size())}};
    if (a.sentence_level) {
      synmt::Json arr = synmt::Json::array();
      for (const auto& v : sentences) arr.push_back(v ? synmt::Json(*v) : synmt::Json(nullptr));
      j["sentences"] = arr;
    }
    std::printf("%s\n", j.dump(1).c_str());
  } else {
    if (a.sentence_level)
      for (std::size_t i = 0; i < sentences.size(); ++i)
        std::printf("%.6f alpha=%f beta=%f %s sentence %zu\n", sentences[i] ? *sentences[i] : -INFINITY,
                    a.ribes_options.alpha, a.ribes_options.beta, a.hyp_path.c_str(), i);
    std::printf("%.6f alpha=%f beta=%f %s\n", score, a.ribes_options.alpha, a.ribes_options.beta, a.hyp_path.c_str());
  }
  return 0;
}

// Corpus BLEU (optionally by source length, sentence scores, multi-bleu.perl's line) or chrF.
int run_bleu_or_chrf(ScoreArgs& a, bool is_bleu) {
  auto hyps = read_segments(a.hyp_path);
  auto refs = read_references(a.ref_paths, hyps.size(), a.hyp_path);
  synmt::Json j;
  if (is_bleu) {
    if (a.multi_bleu) {
      a.bleu_options.tokenize = "none";
      a.bleu_options.smooth = "none";
    }
    synmt::eval::Bleu m(a.bleu_options);
    auto r = m.corpus_score(hyps, refs);
    std::string sig = m.signature(refs.size());
    if (!a.sentence_path.empty()) {
      auto sentence_options = a.bleu_options;
      sentence_options.effective_order = true;
      synmt::eval::Bleu sentence_bleu(sentence_options);
      synmt::AtomicFile out(a.sentence_path);
      char buf[32];
      for (const auto& st : sentence_bleu.corpus_stats(hyps, refs)) {
        std::snprintf(buf, sizeof buf, "%.6f", sentence_bleu.score(st).score);
        out.write_line(buf);
      }
      out.commit();
    }
    synmt::Json buckets = synmt::Json::array();
    if (!a.src_path.empty()) {
      auto src = read_segments(a.src_path);
      if (src.size() != hyps.size())
        throw synmt::InputError(a.src_path, 0, "source has " + std::to_string(src.size()) + " lines, the hypothesis " +
                                                 std::to_string(hyps.size()));
      const auto bounds = synmt::eval::parse_length_bounds(a.bucket_spec, "--buckets");
      for (const auto& b : synmt::eval::bleu_by_source_length(m, hyps, refs, src, bounds))
        buckets.push_back({{"source_words", b.source_words}, {"sentences", b.sentences}, {"score", b.score}});
    }
    if (a.multi_bleu && a.format != "json") {
      // multi-bleu.perl's line; it reports 0 when a precision is 0, as smoothing "none" does
      std::printf("BLEU = %.2f, %.1f/%.1f/%.1f/%.1f (BP=%.3f, ratio=%.3f, hyp_len=%lld, ref_len=%lld)\n", r.score,
                  r.precisions[0], r.precisions[1], r.precisions[2], r.precisions[3], r.bp,
                  r.stats.ref_len ? double(r.stats.sys_len) / r.stats.ref_len : 0.0,
                  static_cast<long long>(r.stats.sys_len), static_cast<long long>(r.stats.ref_len));
      return 0;
    }
    if (a.format != "json") {
      for (const auto& b : buckets)
        std::printf("source words %-7s %5d sentences  BLEU %.2f\n", b["source_words"].get<std::string>().c_str(),
                    b["sentences"].get<int>(), b["score"].get<double>());
      std::printf("BLEU|%s = %.*f %.1f/%.1f/%.1f/%.1f (BP = %.3f ratio = %.3f hyp_len = %lld ref_len = %lld)\n",
                  sig.c_str(), a.width, r.score, r.precisions[0], r.precisions[1], r.precisions[2], r.precisions[3],
                  r.bp, r.stats.ref_len ? double(r.stats.sys_len) / r.stats.ref_len : 0.0,
                  static_cast<long long>(r.stats.sys_len), static_cast<long long>(r.stats.ref_len));
      return 0;
    }
    auto as_json = [](const std::array<double, 4>& a) {
      synmt::Json arr = synmt::Json::array();
      for (double v : a) arr.push_back(v == std::floor(v) ? synmt::Json(static_cast<int64_t>(v)) : synmt::Json(v));
      return arr;
    };
    j = {{"name", "BLEU"}, {"score", r.score}, {"signature", sig}, {"counts", as_json(r.reported_counts)},
         {"totals", as_json(r.reported_totals)}, {"precisions", r.precisions}, {"bp", r.bp},
         {"sys_len", r.stats.sys_len}, {"ref_len", r.stats.ref_len}};
    if (!buckets.empty()) j["buckets"] = buckets;
  } else {
    synmt::eval::Chrf m(a.chrf_options);
    double score = m.corpus_score(hyps, refs);
    std::string name = a.chrf_options.word_order > 0 ? "chrF" + std::string(a.chrf_options.word_order, '+') : "chrF";
    if (a.format != "json") {
      std::printf("%s|%s = %.4f\n", name.c_str(), m.signature(refs.size()).c_str(), score);
      return 0;
    }
    j = {{"name", name}, {"score", score}, {"signature", m.signature(refs.size())}};
  }
  std::printf("%s\n", j.dump(1).c_str());
  return 0;
}

// Paired bootstrap resampling (or approximate randomisation, `ar`) of the systems against the baseline.
int run_paired(ScoreArgs& a, bool ar) {
  std::vector<std::string> names = {a.baseline};
  names.insert(names.end(), a.systems.begin(), a.systems.end());
  const auto outputs = read_systems(names, a.threads);
  auto refs = read_references(a.ref_paths, outputs[0].size(), names[0]);
  for (std::size_t i = 1; i < outputs.size(); ++i)
    if (outputs[i].size() != outputs[0].size())
      throw synmt::InputError(names[i], 0, "has " + std::to_string(outputs[i].size()) + " lines, the baseline " +
                                               std::to_string(outputs[0].size()));
  const std::size_t n = outputs[0].size();
  synmt::eval::ResamplePlan plan;
  if (!ar) {
    if (n % a.runs != 0)
      throw synmt::InputError(names[0], 0, "has " + std::to_string(n) + " lines: not " + std::to_string(a.runs) +
                                               " runs of one test set (--runs)");
    if (a.runs > 1 && !a.indices_path.empty())
      throw synmt::ConfigError("paired-bs: --indices replays the given resamples; --runs cannot apply to them");
    plan = a.indices_path.empty() ? synmt::eval::ResamplePlan::drawn(n, a.samples, a.seed, a.runs)
                                : synmt::eval::ResamplePlan::replayed(synmt::eval::read_indices(a.indices_path, n), n);
  }
  auto [stats, exact, resampled, signature] =
      synmt::eval::paired_metric(a.metric, outputs, refs, a.bleu_options, a.chrf_options, a.ribes_options, a.threads);
  std::vector<synmt::eval::BootstrapSummary> results;
  if (ar) {
    auto selections = a.selections_path.empty() ? synmt::eval::ar_selections(n, a.trials, a.seed)
                                              : synmt::eval::read_selections(a.selections_path, n);
    results = synmt::eval::paired_ar(stats, exact, selections, a.threads);
    signature += "|ar:" + std::to_string(selections.size()) + (a.selections_path.empty() ? "|seed:" + std::to_string(a.seed) : "|selections:file");
  } else {
    results = synmt::eval::paired_bootstrap(stats, exact, resampled, plan, a.threads, a.metric == "chrf");
  }
  if (!a.dump_path.empty()) {
    synmt::AtomicFile dump(a.dump_path);
    for (const auto& r : results) {
      std::string line;
      char buf[40];
      for (double v : r.samples) {
        std::snprintf(buf, sizeof buf, "%.17g ", v);
        line += buf;
      }
      if (!line.empty()) line.pop_back();
      dump.write_line(line);
    }
    dump.commit();
  }
  if (!ar)
    signature += "|bs:" + std::to_string(plan.samples()) + (a.indices_path.empty() ? "|seed:" + std::to_string(a.seed) : "|indices:file") +
                 (a.runs > 1 ? "|runs:" + std::to_string(a.runs) : "");
  if (a.format == "json") {
    std::printf("%s\n", synmt::eval::paired_report(names, results, signature, !ar).dump(1).c_str());
  } else {
    std::printf("%-40s %8s %20s %8s\n", "system", a.metric.c_str(), "mean +- 95% CI", "p-value");
    for (std::size_t i = 0; i < names.size(); ++i)
      std::printf("%-40s %8.4f %11.4f +- %6.4f %8s\n", names[i].c_str(), results[i].score, results[i].mean,
                  results[i].ci, i == 0 ? "-" : std::to_string(results[i].p_value).c_str());
    std::printf("%s\n", signature.c_str());
  }
  return 0;
}
}  // namespace

int main(int argc_in, char** argv_in) {
#ifdef __GLIBC__
  // Significance tests allocate ~100 MB in small pieces on several threads; growing each heap 32 MB
  // at a time instead of by the request saves the repeated brk/mprotect calls (4% of paired-bs).
  mallopt(M_TOP_PAD, 32 << 20);
#endif
  std::vector<std::string> args = normalise_args(argc_in, argv_in);
  std::vector<char*> argv_fixed;
  for (auto& a : args) argv_fixed.push_back(a.data());
  ScoreArgs a;
  Subcommands s;
  return synmt::run_tool(
      "synmt-score", static_cast<int>(argv_fixed.size()), argv_fixed.data(), [&](CLI::App& app) { s = declare(app, a); },
      [&]() {
        if (s.paired->parsed() || s.paired_ar->parsed()) {
          a.chrf_options.lowercase = a.bleu_options.lowercase;
          a.ribes_options.mecab_dicdir = a.bleu_options.mecab_dicdir;  // one --mecab-dicdir for every metric
        }
        if (s.ribes->parsed()) return run_ribes(a);
        if (s.bleu->parsed() || s.chrf->parsed()) return run_bleu_or_chrf(a, s.bleu->parsed());
        return run_paired(a, s.paired_ar->parsed());
      });
}
