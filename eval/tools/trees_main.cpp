// synmt-trees: dependency-tree analysis, one subcommand per job: `uas` (predicted CoNLL-U against
// gold), `baselines` (branching, chain and random trees), `paired-bs` (DA/UA significance),
// `decode` and `induce` (head scores to trees), `import-matrices`, `stats` (head distance and
// entropy), `gate-pos` and `gate-chance` (SA-NMT §6). The work is in eval/; this file reads
// options and files and prints.
#include <cstdint>
#include <cstdio>

#include "core/atomic_file.h"
#include "core/config.h"
#include "core/line_reader.h"
#include "core/strings.h"
#include "core/tool_main.h"
#include "core/word_spans.h"
#include "eval/attachment.h"
#include "eval/conllu.h"
#include "eval/gate_norms.h"
#include "eval/head_scores.h"
#include "eval/paired_metric.h"
#include "eval/score_matrix_text.h"
#include "eval/significance.h"
#include "eval/trees.h"

namespace {
void print(const synmt::eval::AttachmentScores& s, const std::string& format) {
  if (format == "json") {
    synmt::Json j = {{"uas", s.uas},
                     {"las", s.las},
                     {"da", s.da},
                     {"ua", s.ua},
                     {"gold_words", s.gold_words},
                     {"system_words", s.system_words},
                     {"aligned_words", s.aligned_words},
                     {"same_tokenisation", s.same_tokenisation}};
    std::printf("%s\n", j.dump(1).c_str());
  } else {
    std::printf("UAS %.2f  LAS %.2f  DA %.2f  UA %.2f  (%ld gold words, %ld system words%s)\n", s.uas, s.las, s.da, s.ua,
                s.gold_words, s.system_words, s.same_tokenisation ? "" : ", aligned by characters, UAS/LAS are F1");
  }
}
// --decoder of decode and induce: the names eval::decode_tree takes
const CLI::IsMember kTreeDecoders({"cle", "eisner", "greedy"});

// The options of every subcommand.
struct TreesArgs {
  std::string gold, pred, format = "text";
  bool include_punct = false;
  bool previous_step = false;  // gate-pos: also the previous-step reading of Eq. 17
  std::string gates_path, target_text, subwords = "bpe";
  std::string heads_path, tensor, rows = "heads";
  int head = -1;
  bool probabilities = false, no_root = false;
  std::string scores_path, decoder = "cle", gold_heads, output = "-";
  int random_draws = 20;
  std::uint64_t random_seed = 1;
  // paired-bs
  std::string baseline, metric = "da";
  std::vector<std::string> systems;
  int samples = 1000, threads = 1;
  std::uint64_t seed = 12345;
  std::size_t runs = 1;  // paired-bs: the trees are this many runs' trees of the gold sentences, one after another
};

struct Subcommands {
  CLI::App *uas = nullptr, *baselines = nullptr, *decode = nullptr, *stats = nullptr, *induce = nullptr, *import = nullptr, *gate_pos = nullptr,
           *gate_chance = nullptr, *paired = nullptr;
};

// Every subcommand and its options; `a` receives the values.
Subcommands declare(CLI::App& app, TreesArgs& a) {
  CLI::App *uas = nullptr, *baselines = nullptr, *decode = nullptr, *stats = nullptr, *induce = nullptr, *import = nullptr, *gate_pos = nullptr,
           *gate_chance = nullptr, *paired = nullptr;
  app.description("Dependency-tree scoring for induced and parsed trees.");
  app.require_subcommand(1);
  uas = app.add_subcommand("uas", "UAS/LAS (conll18_ud_eval semantics) and DA/UA of predicted trees");
  uas->add_option("--pred", a.pred, "predicted CoNLL-U")->required();
  baselines = app.add_subcommand("baselines", "left-/right-branching, undirected-chain and random-tree baselines");
  baselines->add_option("--random-draws", a.random_draws, "random trees per sentence (their DA/UA: mean and sd over draws)")
      ->capture_default_str()->check(CLI::Range(2, 100000));
  baselines->add_option("--random-seed", a.random_seed, "seed of the random trees")->capture_default_str();
  decode = app.add_subcommand("decode", "decode head-score matrices into trees (one line of heads per sentence)");
  decode->add_option("--scores", a.scores_path, "matrices: row = head (0 = ROOT), column = dependent")->required();
  decode->add_option("--decoder", a.decoder, "cle | eisner | greedy")->capture_default_str()->check(kTreeDecoders);
  decode->add_option("--gold-heads", a.gold_heads, "gold heads, one line per sentence: report UAS");
  decode->add_option("-o,--output", a.output, "heads output ('-' = stdout)")->capture_default_str();
  decode->add_option("-f,--format", a.format, "text | json (of the UAS report)")->capture_default_str();
  induce = app.add_subcommand("induce", "sub-word head scores (HDF5) -> word trees as CoNLL-U, aligned to gold");
  induce->add_option("--heads", a.heads_path, "head-score file (synmt-head-scores-1), or an analysis dump with --tensor")->required();
  induce->add_option("--tensor", a.tensor, "read --heads as an analysis dump (synmt-analysis-1) and use this tensor");
  induce->add_option("--head", a.head, "with --tensor of shape (heads src src): the head to use");
  induce->add_option("--rows", a.rows, "with --tensor: heads (row i scores i heading j) | dependents (row i: i's distribution "
                                     "over its heads, as self-attention)")
      ->capture_default_str()
      ->check(CLI::IsMember({"heads", "dependents"}));
  induce->add_option("--gold", a.gold, "gold CoNLL-U: words, forms and UPOS of the output")->required();
  induce->add_option("--decoder", a.decoder, "cle | eisner | greedy")->capture_default_str()->check(kTreeDecoders);
  induce->add_option("-o,--output", a.output, "predicted CoNLL-U")->capture_default_str();
  import = app.add_subcommand("import-matrices", "word-level text matrices (row 0 = ROOT) -> HDF5 head scores");
  import->add_option("--scores", a.scores_path, "text matrices as for decode")->required();
  import->add_option("-o,--output", a.output, "head-score HDF5 file")->required();
  gate_pos = app.add_subcommand("gate-pos", "UPOS of the word with each sentence's highest gate norm (SA-NMT §6)");
  gate_pos->add_option("--gates", a.gates_path, "gate-norm file (synmt-gate-norms-1), or an analysis dump with --tensor")->required();
  gate_pos->add_option("--tensor", a.tensor, "read --gates as an analysis dump (synmt-analysis-1) and use this per-target-step tensor");
  gate_pos->add_option("--target", a.target_text, "with --tensor: the split's target sub-word text (one sentence a line)");
  gate_pos->add_option("--subwords", a.subwords, "with --tensor: bpe | spm | none, how --target marks words")->capture_default_str();
  gate_pos->add_option("--conllu", a.gold, "CoNLL-U of the same target sentences (tagged)")->required();
  gate_pos->add_option("-f,--format", a.format, "text | json")->capture_default_str();
  gate_pos->add_flag("--previous-step", a.previous_step,
                     "also count each piece under the norm of the step before it (Eq. 17 read as z_t from h_{t-1}; "
                     "JSON key previous_step)");
  gate_chance = app.add_subcommand("gate-chance", "gate-pos's peak shares by chance, from the target side alone: a random piece, "
                                                  "a random word, the first word (SA-NMT §6)");
  gate_chance->add_option("--target", a.target_text, "the split's target sub-word text (one sentence a line)")->required();
  gate_chance->add_option("--subwords", a.subwords, "bpe | spm | none, how --target marks words")->capture_default_str();
  gate_chance->add_option("--conllu", a.gold, "CoNLL-U of the same target sentences (tagged)")->required();
  gate_chance->add_option("-f,--format", a.format, "text | json")->capture_default_str();
  stats = app.add_subcommand("stats", "mean +- std distance to the most likely head and head entropy");
  stats->add_option("--scores", a.scores_path, "matrices: column d = word d's head scores (row 0 = ROOT), or an analysis dump with --tensor")->required();
  stats->add_option("--tensor", a.tensor, "read --scores as an analysis dump: this (src src) tensor, row i = i's head distribution "
                                        "(a latent graph), statistics over its pieces (no root)");
  stats->add_flag("--probabilities", a.probabilities, "columns are already distributions (else softmax over h != d)");
  stats->add_flag("--no-root", a.no_root, "ignore row 0 (Bastings' graphs have no root)");
  stats->add_option("-f,--format", a.format, "text | json")->capture_default_str();
  paired = app.add_subcommand("paired-bs", "paired bootstrap over sentences of DA or UA: trees against a baseline's trees "
                                          "(sacreBLEU's --paired-bs procedure, synmt-score's resampler)");
  paired->add_option("--baseline", a.baseline, "the baseline's trees (CoNLL-U on the gold tokenisation)")->required();
  paired->add_option("systems", a.systems, "trees compared with the baseline")->required();
  paired->add_option("-m,--metric", a.metric, "da | ua")->capture_default_str()->check(CLI::IsMember({"da", "ua"}));
  paired->add_option("--samples", a.samples, "number of resamples")->capture_default_str()->check(CLI::Range(1, 1000000));
  paired->add_option("--runs", a.runs,
                     "the trees are N runs' trees of one gold set, concatenated (the gold repeated N times): a resample "
                     "draws sentences and keeps every run's tree of each")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  paired->add_option("--seed", a.seed, "RNG seed for the resamples")->capture_default_str();
  paired->add_option("--threads", a.threads)->capture_default_str();
  for (auto* c : {uas, baselines, paired}) {
    c->add_option("--gold", a.gold, "gold CoNLL-U")->required();
    c->add_option("-f,--format", a.format, "text | json")->capture_default_str();
    c->add_flag("--include-punct", a.include_punct, "count punctuation in DA/UA");
  }
  return {uas, baselines, decode, stats, induce, import, gate_pos, gate_chance, paired};
}

// Head-score matrices -> trees (one line of heads per sentence), with UAS against gold heads.
int run_decode(const TreesArgs& a) {
  auto matrices = synmt::eval::read_score_matrices(a.scores_path);
  synmt::AtomicFile out(a.output);
  std::vector<synmt::eval::Heads> predicted;
  for (const auto& m : matrices) {
    synmt::eval::Heads h = synmt::eval::decode_tree(m, a.decoder);
    std::string line;
    for (std::size_t d = 1; d < h.size(); ++d) line += (d > 1 ? " " : "") + std::to_string(h[d]);
    out.write_line(line);
    predicted.push_back(std::move(h));
  }
  out.commit();
  if (!a.gold_heads.empty()) {
    const auto gold = synmt::eval::read_head_lines(a.gold_heads);
    if (gold.size() != predicted.size())
      throw synmt::InputError(a.gold_heads, 0, std::to_string(gold.size()) + " sentences, the matrices have " +
                                                 std::to_string(predicted.size()));
    long correct = 0, total = 0;
    for (std::size_t i = 0; i < gold.size(); ++i) {
      const std::size_t words = predicted[i].size() - 1;
      if (gold[i].size() != words)
        throw synmt::InputError(a.gold_heads, i + 1, std::string(gold[i].size() > words ? "more" : "fewer") +
                                                         " heads than the matrix has words");
      for (std::size_t d = 1; d <= words; ++d) correct += predicted[i][d] == gold[i][d - 1];
      total += static_cast<long>(words);
    }
    double score = 100.0 * correct / std::max(1L, total);
    if (a.format == "json") std::fprintf(stderr, "%s\n", synmt::Json{{"uas", score}, {"words", total}}.dump().c_str());
    else std::fprintf(stderr, "UAS %.2f (%ld words, decoder %s)\n", score, total, a.decoder.c_str());
  }
  return 0;
}

// Each line of --target split into word spans ([first, last] piece) by --subwords.
std::vector<std::vector<std::pair<int, int>>> target_word_spans(const TreesArgs& a) {
  synmt::SubwordMarks marks;
  try {
    marks = synmt::subword_marks_from_name(a.subwords);
  } catch (const std::invalid_argument& e) {
    throw synmt::ConfigError(std::string("--subwords: ") + e.what());
  }
  std::vector<std::vector<std::pair<int, int>>> spans;
  synmt::LineReader in(a.target_text);
  std::string line;
  while (in.next(line)) {
    std::vector<std::pair<int, int>> s;
    for (const auto& w : synmt::word_spans(synmt::split_nonempty(line, ' '), marks)) s.emplace_back(w.first, w.last);
    spans.push_back(std::move(s));
  }
  return spans;
}

// Counts per UPOS as {total_key: total, counts, percent}, every UD tag present (0 where none):
// tables read percent.TAG.
synmt::Json upos_shares(const std::map<std::string, long>& counts_by_tag, long total, const char* total_key) {
  synmt::Json counts = counts_by_tag, percent = synmt::Json::object();
  for (const char* tag : {"ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON", "PROPN", "PUNCT",
                          "SCONJ", "SYM", "VERB", "X"})
    if (!counts.contains(tag)) counts[tag] = 0;
  for (const auto& [tag, n] : counts.items()) percent[tag] = 100.0 * n.get<long>() / std::max(1L, total);
  return {{total_key, total}, {"counts", counts}, {"percent", percent}};
}

// The UPOS of the word with each sentence's highest gate norm (SA-NMT section 6).
int run_gate_pos(const TreesArgs& a) {
  std::vector<synmt::eval::SentenceGateNorms> gates;
  if (a.tensor.empty()) {
    gates = synmt::eval::read_gate_norms(a.gates_path);
  } else {
    if (a.target_text.empty()) throw synmt::ConfigError("gate-pos --tensor needs --target (the target sub-word text)");
    gates = synmt::eval::gate_norms_from_analysis(a.gates_path, a.tensor, target_word_spans(a));
  }
  const auto gold = synmt::eval::read_conllu(a.gold);
  auto shares = [&](const std::vector<synmt::eval::SentenceGateNorms>& g) {
    auto hist = synmt::eval::gate_pos_histogram(g, gold, a.gold);
    long total = 0;
    for (const auto& [pos, n] : hist) total += n;
    return upos_shares(hist, total, "sentences");
  };
  auto j = shares(gates);
  if (a.previous_step) j["previous_step"] = shares(synmt::eval::norms_of_the_previous_step(gates));
  if (a.format == "json") {
    std::printf("%s\n", j.dump(1).c_str());
  } else {
    auto print = [](const char* prefix, const synmt::Json& part) {
      for (const auto& [pos, n] : part["counts"].items())
        if (n.get<long>() > 0) std::printf("%s%-6s %6ld  %5.1f%%\n", prefix, pos.c_str(), n.get<long>(), part["percent"][pos].get<double>());
    };
    print("", j);
    if (j.contains("previous_step")) print("previous step: ", j["previous_step"]);
  }
  return 0;
}

// The peak shares gate-pos would find by chance (no model): one object per kind, each in
// gate-pos's layout, so that a table row reads percent.TAG from it as from a system's gate_pos.
int run_gate_chance(const TreesArgs& a) {
  const auto c = synmt::eval::gate_pos_chance(target_word_spans(a), synmt::eval::read_conllu(a.gold), a.gold);
  auto sum = [](const std::map<std::string, long>& m) {
    long n = 0;
    for (const auto& [tag, k] : m) n += k;
    return n;
  };
  synmt::Json j = {{"random_piece", upos_shares(c.pieces, sum(c.pieces), "pieces")},
                   {"random_word", upos_shares(c.words, sum(c.words), "words")},
                   {"first_word", upos_shares(c.first_word, c.sentences, "sentences")}};
  if (a.format == "json") {
    std::printf("%s\n", j.dump(1).c_str());
  } else {
    for (const auto& [kind, v] : j.items()) {
      std::printf("%s:", kind.c_str());
      for (const auto& [tag, pct] : v["percent"].items())
        if (pct.get<double>() > 0) std::printf(" %s %.1f%%", tag.c_str(), pct.get<double>());
      std::printf("\n");
    }
  }
  return 0;
}

// Word-level text matrices -> an HDF5 head-score file.
int run_import(const TreesArgs& a) {
  std::vector<synmt::eval::SentenceHeadScores> out;
  for (const auto& m : synmt::eval::read_score_matrices(a.scores_path)) {
    const std::size_t n = m.size() - 1;  // one piece per word; root scores move to the diagonal
    synmt::eval::SentenceHeadScores s;
    s.pieces.assign(n, std::vector<double>(n, 0.0));
    for (std::size_t d = 1; d <= n; ++d) {
      s.spans.emplace_back(static_cast<int>(d - 1), static_cast<int>(d - 1));
      for (std::size_t h = 0; h <= n; ++h)
        if (h != d) (h == 0 ? s.pieces[d - 1][d - 1] : s.pieces[h - 1][d - 1]) = m[h][d];
    }
    out.push_back(std::move(s));
  }
  synmt::eval::write_head_scores(a.output, out);
  return 0;
}

// Sub-word head scores -> word trees as CoNLL-U, aligned to the gold words.
int run_induce(const TreesArgs& a) {
  auto sentences = a.tensor.empty() ? synmt::eval::read_head_scores(a.heads_path)
                                  : synmt::eval::read_head_scores_from_analysis(
                                        a.heads_path, a.tensor, a.head,
                                        a.rows == "heads" ? synmt::eval::MatrixRows::kHeadsRows : synmt::eval::MatrixRows::kDependentRows);
  auto g = synmt::eval::read_conllu(a.gold);
  if (sentences.size() != g.size())
    throw synmt::InputError(a.heads_path, 0, std::to_string(sentences.size()) + " sentences, but " + a.gold + " has " +
                                               std::to_string(g.size()));
  synmt::AtomicFile out(a.output);
  for (std::size_t s = 0; s < g.size(); ++s) {
    if (sentences[s].spans.size() != g[s].words.size())
      throw synmt::InputError(a.gold, g[s].first_line, "sentence " + std::to_string(s + 1) + " has " +
                                                         std::to_string(g[s].words.size()) + " words but the head matrix has " +
                                                         std::to_string(sentences[s].spans.size()) + " (in " + a.heads_path + ")");
    auto words = synmt::eval::collapse_to_words(sentences[s].pieces, sentences[s].spans);
    auto h = synmt::eval::decode_tree(words, a.decoder);
    for (std::size_t k = 0; k < g[s].words.size(); ++k) {
      const auto& w = g[s].words[k];
      out.write_line(std::to_string(w.id) + "\t" + w.form + "\t" + w.lemma + "\t" + w.upos + "\t" + w.xpos + "\t" +
                     w.feats + "\t" + std::to_string(h[k + 1]) + "\t" + (h[k + 1] == 0 ? "root" : "dep") + "\t_\t_");
    }
    out.write_line("");
  }
  out.commit();
  return 0;
}

// Mean and deviation of the distance to the most likely head, and of the head entropy.
int run_stats(const TreesArgs& a) {
  std::vector<synmt::eval::ScoreMatrix> matrices;
  if (a.tensor.empty()) {
    matrices = synmt::eval::read_score_matrices(a.scores_path);
  } else {
    // row i of the dump is i's a.head distribution: transposed on reading (column = dependent),
    // then a zero ROOT row and column in front, which --no-root leaves out
    for (const auto& s : synmt::eval::read_head_scores_from_analysis(a.scores_path, a.tensor, -1,
                                                                     synmt::eval::MatrixRows::kDependentRows, false)) {
      const std::size_t n = s.pieces.size();
      synmt::eval::ScoreMatrix m(n + 1, std::vector<double>(n + 1, 0.0));
      for (std::size_t h = 0; h < n; ++h)
        for (std::size_t d = 0; d < n; ++d) m[h + 1][d + 1] = s.pieces[h][d];
      matrices.push_back(std::move(m));
    }
  }
  auto st = synmt::eval::head_statistics(matrices, !a.probabilities, !a.no_root);
  synmt::Json j = {{"distance_mean", st.distance_mean}, {"distance_std", st.distance_std}, {"distance_var", st.distance_var},
                   {"entropy_mean_nats", st.entropy_mean}, {"entropy_std_nats", st.entropy_std},
                   {"uniform_entropy_mean_nats", st.uniform_entropy_mean}, {"uniform_distance_mean", st.uniform_distance_mean},
                   {"end_head_percent", st.end_head_percent}, {"inner_distance_mean", st.inner_distance_mean},
                   {"uniform_inner_distance_mean", st.uniform_inner_distance_mean},
                   {"words", st.words}, {"root_heads", st.root_heads}};
  if (a.format == "json") std::printf("%s\n", j.dump(1).c_str());
  else
    std::printf("head distance %.2f +- %.2f, entropy %.2f +- %.2f nats (%ld words, %ld with the root as best head)\n",
                st.distance_mean, st.distance_std, st.entropy_mean, st.entropy_std, st.words, st.root_heads);
  return 0;
}

// Paired bootstrap of DA/UA over the gold sentences: the resampled unit is a sentence (its words'
// attachments are not independent), each resample's score recomputed from summed counts.
int run_paired(const TreesArgs& a) {
  const auto gold = synmt::eval::read_conllu(a.gold);
  std::vector<std::string> names = {a.baseline};
  names.insert(names.end(), a.systems.begin(), a.systems.end());
  std::vector<synmt::eval::SegmentStats> stats;
  for (const auto& name : names)
    stats.push_back(synmt::eval::attachment_rows(gold, synmt::eval::read_conllu(name), name, a.include_punct));
  const bool directed = a.metric == "da";
  const synmt::eval::ScoreFn score = [directed](const std::vector<double>& s) { return synmt::eval::attachment_from_rows(s, directed); };
  if (gold.size() % a.runs != 0)
    throw synmt::InputError(a.gold, 0, "has " + std::to_string(gold.size()) + " sentences: not " + std::to_string(a.runs) +
                                           " runs of one gold set (--runs)");
  const auto plan = synmt::eval::ResamplePlan::drawn(gold.size(), a.samples, a.seed, a.runs);
  const auto results = synmt::eval::paired_bootstrap(stats, score, score, plan, a.threads);
  const std::string signature = std::string("metric:") + a.metric + "|punct:" + (a.include_punct ? "yes" : "no") +
                                "|unit:sentence|n:" + std::to_string(gold.size()) + "|bs:" + std::to_string(a.samples) +
                                "|seed:" + std::to_string(a.seed) + (a.runs > 1 ? "|runs:" + std::to_string(a.runs) : "");
  if (a.format == "json") {
    std::printf("%s\n", synmt::eval::paired_report(names, results, signature, true).dump(1).c_str());
    return 0;
  }
  std::printf("%-40s %8s %20s %8s\n", "trees", a.metric.c_str(), "mean +- 95% CI", "p-value");
  for (std::size_t i = 0; i < names.size(); ++i)
    std::printf("%-40s %8.2f %11.2f +- %6.2f %8s\n", names[i].c_str(), results[i].score, results[i].mean, results[i].ci,
                i == 0 ? "-" : std::to_string(results[i].p_value).c_str());
  std::printf("%s\n", signature.c_str());
  return 0;
}

// UAS/LAS and DA/UA of predicted trees (`is_uas`), or the branching and chance baselines on the
// gold trees.
int run_uas_or_baselines(const TreesArgs& a, bool is_uas) {
  auto g = synmt::eval::read_conllu(a.gold);
  if (is_uas) {
    print(synmt::eval::attachment_scores(g, synmt::eval::read_conllu(a.pred), a.include_punct), a.format);
    return 0;
  }
  synmt::Json out;
  for (const char* name : {"left_branching", "right_branching"}) {
    auto sys = g;
    for (auto& s : sys) {
      int n = static_cast<int>(s.words.size());
      auto h = std::string(name) == "left_branching" ? synmt::eval::left_branching(n) : synmt::eval::right_branching(n);
      for (int k = 0; k < n; ++k) s.words[k].head = h[k + 1];
    }
    auto r = synmt::eval::attachment_scores(g, sys, a.include_punct);
    out[name] = {{"da", r.da}, {"ua", r.ua}};
  }
  out["undirected_chain"] = {{"ua", out["left_branching"]["ua"]}};
  // chance: every sentence's tree decoded from random scores, a.random_draws times, by the
  // induced trees' two decoders (SA-NMT's Chu-Liu-Edmonds, LGP-NMT's projective Eisner)
  std::string text;
  for (bool projective : {false, true}) {
    auto c = synmt::eval::chance_attachment(g, a.random_draws, a.random_seed, projective, a.include_punct);
    const char* name = projective ? "random_projective_trees" : "random_trees";
    out[name] = {{"da", c.da}, {"ua", c.ua}, {"da_sd", c.da_sd}, {"ua_sd", c.ua_sd}, {"draws", a.random_draws},
                 {"seed", a.random_seed},
                 {"decoder", projective ? "Eisner (projective, one root child) on independent uniform scores"
                                        : "Chu-Liu-Edmonds (one root child) on independent uniform scores"}};
    char line[160];
    std::snprintf(line, sizeof line, "random %strees (%d draws): DA %.1f +- %.1f, UA %.1f +- %.1f\n",
                  projective ? "projective " : "", a.random_draws, c.da, c.da_sd, c.ua, c.ua_sd);
    text += line;
  }
  if (a.format == "json") {
    std::printf("%s\n", out.dump(1).c_str());
  } else {
    std::printf("L (head = next word): DA %.1f\nR (head = previous word): DA %.1f\nUn (undirected chain): UA %.1f\n%s",
                out["left_branching"]["da"].get<double>(), out["right_branching"]["da"].get<double>(),
                out["undirected_chain"]["ua"].get<double>(), text.c_str());
  }
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  TreesArgs a;
  Subcommands s;
  return synmt::run_tool(
      "synmt-trees", argc, argv, [&](CLI::App& app) { s = declare(app, a); },
      [&]() {
        if (s.decode->parsed()) return run_decode(a);
        if (s.gate_pos->parsed()) return run_gate_pos(a);
        if (s.gate_chance->parsed()) return run_gate_chance(a);
        if (s.import->parsed()) return run_import(a);
        if (s.induce->parsed()) return run_induce(a);
        if (s.stats->parsed()) return run_stats(a);
        if (s.paired->parsed()) return run_paired(a);
        return run_uas_or_baselines(a, s.uas->parsed());
      });
}
