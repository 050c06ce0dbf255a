#include "trainer/parser/builtin_parser.h"

#include <torch/nn/functional/loss.h>
#include <torch/nn/utils/clip_grad.h>
#include <torch/optim/adam.h>
#include <torch/serialize.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <limits>
#include <mutex>
#include <set>
#include <thread>

#include "core/atomic_file.h"
#include "core/config.h"
#include "core/error.h"
#include "core/log.h"
#include "eval/attachment.h"
#include "eval/conllu.h"
#include "eval/trees.h"
#include "parse/conllu.h"
#include "preprocess/vocab.h"
#include "trainer/archive_io.h"
#include "trainer/loop/metrics_log.h"
#include "trainer/loop/validation_policy.h"
#include "trainer/runtime.h"

namespace synmt::parser {

namespace {
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Batches of sentence indices: sorted by length inside windows (little padding), shuffled.
std::vector<std::vector<std::size_t>> make_plan(const std::vector<ParserSentence>& data, int batch_words, std::mt19937_64* rng) {
  std::vector<std::size_t> order(data.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (rng) std::shuffle(order.begin(), order.end(), *rng);
  const std::size_t window = 2000;
  for (std::size_t b = 0; b < order.size(); b += window) {
    auto e = std::min(order.size(), b + window);
    std::stable_sort(order.begin() + b, order.begin() + e, [&](auto x, auto y) { return data[x].forms.size() < data[y].forms.size(); });
  }
  std::vector<std::vector<std::size_t>> plan;
  std::size_t longest = 0;
  for (auto i : order) {
    const std::size_t len = data[i].forms.size() + 1;
    if (plan.empty() || std::max(longest, len) * (plan.back().size() + 1) > static_cast<std::size_t>(batch_words)) {
      plan.emplace_back();
      longest = 0;
    }
    plan.back().push_back(i);
    longest = std::max(longest, len);
  }
  if (rng) std::shuffle(plan.begin(), plan.end(), *rng);
  return plan;
}

// heads[d] for d = 1..n from log-probabilities [dependent][head]: the argmax heads when they form a
// tree with one root (then they are the maximum spanning tree), else Chu-Liu-Edmonds.
std::vector<int32_t> decode_tree(const float* logp, int64_t stride, int n) {
  eval::Heads heads(static_cast<std::size_t>(n) + 1, -1);
  for (int d = 1; d <= n; ++d) {
    const float* row = logp + d * stride;
    int best = 0;
    for (int h = 1; h <= n; ++h)
      if (row[h] > row[best]) best = h;
    heads[static_cast<std::size_t>(d)] = best;
  }
  if (!eval::is_tree(heads, true)) {
    eval::ScoreMatrix scores(static_cast<std::size_t>(n) + 1, std::vector<double>(static_cast<std::size_t>(n) + 1, -1e9));
    for (int d = 1; d <= n; ++d)
      for (int h = 0; h <= n; ++h)
        if (h != d) scores[static_cast<std::size_t>(h)][static_cast<std::size_t>(d)] = logp[d * stride + h];
    heads = eval::chu_liu_edmonds(scores, true);
  }
  return {heads.begin() + 1, heads.end()};
}
}  // namespace

TreebankSpec TreebankSpec::parse(const std::string& spec) {
  TreebankSpec t;
  const auto at = spec.rfind('@');
  t.path = spec.substr(0, at);
  if (at == std::string::npos) return t;
  const std::string range = spec.substr(at + 1);
  const auto colon = range.find(':');
  auto number = [&](const std::string& x, std::size_t fallback) {
    if (x.empty()) return fallback;
    if (x.find_first_not_of("0123456789") != std::string::npos) throw ConfigError("treebank '" + spec + "': range must be @BEGIN:END");
    return static_cast<std::size_t>(std::stoull(x));
  };
  if (colon == std::string::npos) throw ConfigError("treebank '" + spec + "': range must be @BEGIN:END");
  t.begin = number(range.substr(0, colon), 0);
  t.end = number(range.substr(colon + 1), static_cast<std::size_t>(-1));
  if (t.end <= t.begin) throw ConfigError("treebank '" + spec + "': empty range");
  return t;
}

namespace {
template <class T>
std::vector<T> slice(std::vector<T> all, const TreebankSpec& t) {
  const std::size_t b = std::min(t.begin, all.size()), e = std::min(t.end, all.size());
  return {std::make_move_iterator(all.begin() + static_cast<std::ptrdiff_t>(b)),
          std::make_move_iterator(all.begin() + static_cast<std::ptrdiff_t>(e))};
}
}  // namespace

std::vector<ParserSentence> load_treebank(const std::string& spec, std::size_t max_sentences) {
  std::vector<ParserSentence> out;
  const auto t = TreebankSpec::parse(spec);
  for (const auto& s : slice(parse::read_conllu(t.path), t)) {
    ParserSentence p;
    for (const auto* w : s.words()) {
      p.forms.push_back(w->form());
      p.upos.push_back(w->upos());
      p.labels.push_back(w->deprel());
      p.heads.push_back(std::stoi(w->cols[6]));
    }
    out.push_back(std::move(p));
    if (max_sentences > 0 && out.size() >= max_sentences) break;
  }
  return out;
}

ParserTrainOptions ParserTrainOptions::from_json(const nlohmann::json& j) {
  ParserTrainOptions o = options_from_json<ParserTrainOptions>(j, "parser.train");
  if (o.keep != "best" && o.keep != "last") throw ConfigError("parser.train.keep '" + o.keep + "' is none of best | last");
  return o;
}

nlohmann::json ParserTrainOptions::to_json() const { return options_to_json(*this); }

BuiltinParser::BuiltinParser(BiaffineParser model, ParserVocab vocab) : model_(std::move(model)), vocab_(std::move(vocab)) {}

ParserBatch BuiltinParser::make_batch(const std::vector<const ParserSentence*>& sentences) const {
  const auto B = static_cast<int64_t>(sentences.size());
  int64_t N = 0;
  for (const auto* s : sentences) N = std::max<int64_t>(N, static_cast<int64_t>(s->forms.size()));
  const int64_t N1 = N + 1;
  ParserBatch b;
  b.words = torch::zeros({B, N1}, torch::kInt64);
  b.lengths = torch::zeros({B}, torch::kInt64);
  b.heads = torch::full({B, N1}, -100, torch::kInt64);
  b.labels = torch::full({B, N1}, -100, torch::kInt64);
  b.upos = torch::full({B, N1}, -100, torch::kInt64);
  auto words = b.words.accessor<int64_t, 2>();
  auto heads = b.heads.accessor<int64_t, 2>();
  auto labels = b.labels.accessor<int64_t, 2>();
  auto upos = b.upos.accessor<int64_t, 2>();
  auto lengths = b.lengths.accessor<int64_t, 1>();
  std::vector<int64_t> ngram_ids, offsets;
  offsets.reserve(static_cast<std::size_t>(B * N1));
  for (int64_t i = 0; i < B; ++i) {
    const auto& s = *sentences[static_cast<std::size_t>(i)];
    const auto n = static_cast<int64_t>(s.forms.size());
    lengths[i] = n;
    words[i][0] = ParserVocab::kRoot;
    offsets.push_back(static_cast<int64_t>(ngram_ids.size()));
    ngram_ids.push_back(1);  // the root n-gram
    for (int64_t k = 1; k < N1; ++k) {
      offsets.push_back(static_cast<int64_t>(ngram_ids.size()));
      if (k > n) continue;  // padding: empty bag
      const auto& form = s.forms[static_cast<std::size_t>(k - 1)];
      words[i][k] = vocab_.word_id(form);
      for (auto g : vocab_.ngram_ids(form)) ngram_ids.push_back(g);
      if (!s.heads.empty()) {
        heads[i][k] = s.heads[static_cast<std::size_t>(k - 1)];
        const auto l = vocab_.label_id(s.labels[static_cast<std::size_t>(k - 1)]);
        const auto u = vocab_.upos_id(s.upos[static_cast<std::size_t>(k - 1)]);
        labels[i][k] = l < 0 ? -100 : l;
        upos[i][k] = u < 0 ? -100 : u;
      }
    }
  }
  b.ngram_ids = torch::tensor(ngram_ids, torch::kInt64);
  b.ngram_offsets = torch::tensor(offsets, torch::kInt64);
  return b;
}

void BuiltinParser::parse_batch(const std::vector<ParserSentence>& data, const std::vector<std::size_t>& ids,
                                std::vector<ParsedSentence>& out) {
  std::vector<const ParserSentence*> batch;
  for (auto i : ids) batch.push_back(&data[i]);
  auto b = make_batch(batch);
  auto o = model_->forward(b);
  auto logp = torch::log_softmax(o.arc_scores, -1).contiguous();
  const int64_t N1 = logp.size(1);
  std::vector<std::vector<int32_t>> tree_heads(ids.size());
  auto heads_tensor = torch::full({static_cast<int64_t>(ids.size()), N1}, 0, torch::kInt64);
  auto ha = heads_tensor.accessor<int64_t, 2>();
  const float* lp = logp.data_ptr<float>();
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const int n = static_cast<int>(data[ids[k]].forms.size());
    tree_heads[k] = decode_tree(lp + static_cast<int64_t>(k) * N1 * N1, N1, n);
    for (int d = 1; d <= n; ++d) ha[static_cast<int64_t>(k)][d] = tree_heads[k][static_cast<std::size_t>(d - 1)];
  }
  auto labels = model_->label_scores(o, heads_tensor).argmax(-1);
  auto tags = o.upos_logits.argmax(-1);
  auto la = labels.accessor<int64_t, 2>();
  auto ta = tags.accessor<int64_t, 2>();
  for (std::size_t k = 0; k < ids.size(); ++k) {
    auto& p = out[ids[k]];
    p.heads = tree_heads[k];
    for (std::size_t d = 1; d <= p.heads.size(); ++d) {
      p.labels.push_back(vocab_.labels()[static_cast<std::size_t>(la[static_cast<int64_t>(k)][static_cast<int64_t>(d)])]);
      p.upos.push_back(vocab_.upos()[static_cast<std::size_t>(ta[static_cast<int64_t>(k)][static_cast<int64_t>(d)])]);
    }
  }
}

std::vector<ParsedSentence> BuiltinParser::parse(const std::vector<std::vector<std::string>>& sentences, int batch_words,
                                                 int threads) {
  model_->eval();
  std::vector<ParserSentence> data(sentences.size());
  for (std::size_t i = 0; i < sentences.size(); ++i) data[i].forms = sentences[i];
  std::vector<ParsedSentence> out(sentences.size());
  const auto plan = make_plan(data, batch_words, nullptr);
  if (threads <= 0) threads = runtime_threads();
  threads = std::max(1, std::min<int>(threads, static_cast<int>(plan.size())));
  auto work = [&](int t) {
    torch::NoGradGuard no_grad;  // thread-local
    for (std::size_t k = static_cast<std::size_t>(t); k < plan.size(); k += static_cast<std::size_t>(threads))
      parse_batch(data, plan[k], out);
  };
  if (threads == 1) {
    work(0);
    return out;
  }
  // one replica per thread on a single-threaded BLAS; every batch writes its own sentences only
  set_blas_threads(1);
  std::vector<std::thread> pool;
  std::exception_ptr failure;
  std::mutex failure_mutex;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      try {
        work(t);
      } catch (...) {
        std::lock_guard<std::mutex> lock(failure_mutex);
        failure = std::current_exception();
      }
    });
  for (auto& th : pool) th.join();
  set_blas_threads(runtime_threads());
  if (failure) std::rethrow_exception(failure);
  return out;
}

void BuiltinParser::save(const std::string& path, const nlohmann::json& extra) const {
  torch::serialize::OutputArchive archive;
  model_->save(archive);
  archive.write("synmt_format", c10::IValue(std::string(kParserFormat)));
  archive.write("synmt_options", c10::IValue(model_->options().to_json().dump()));
  archive.write("synmt_vocab", c10::IValue(vocab_.to_json().dump()));
  archive.write("synmt_extra", c10::IValue(extra.dump()));
  save_archive(archive, path);
}

BuiltinParser BuiltinParser::load(const std::string& path) {
  torch::serialize::InputArchive archive;
  load_archive(archive, path, torch::Device(torch::kCPU), "parser model");
  return read_archive_records(path, "parser model", [&] {
    c10::IValue format, options, vocab;
    if (!archive.try_read("synmt_format", format) || !format.isString() || format.toStringRef() != kParserFormat)
      throw InputError(path, 0, std::string("not a builtin parser model of format ") + kParserFormat);
    archive.read("synmt_options", options);
    archive.read("synmt_vocab", vocab);
    BiaffineParser model(ParserOptions::from_json(nlohmann::json::parse(options.toStringRef())));
    try {
      model->load(archive);
    } catch (const c10::Error&) {
      throw InputError(path, 0, "parameters do not match the parser described in the file");
    }
    model->eval();
    return BuiltinParser(model, ParserVocab::from_json(nlohmann::json::parse(vocab.toStringRef())));
  });
}

ParserScores evaluate_parser(BuiltinParser& parser, const std::string& gold_conllu) {
  auto gold = load_treebank(gold_conllu);
  const auto spec = TreebankSpec::parse(gold_conllu);
  std::vector<std::vector<std::string>> forms;
  for (const auto& s : gold) forms.push_back(s.forms);
  const auto start = Clock::now();
  auto parsed = parser.parse(forms);
  ParserScores r;
  r.seconds = seconds_since(start);
  r.sentences_per_second = static_cast<double>(gold.size()) / std::max(1e-9, r.seconds);
  // score with eval/'s CoNLL 2018 implementation (punctuation included, universal labels)
  auto gold_eval = slice(eval::read_conllu(spec.path), spec);
  std::vector<eval::ConlluSentence> system = gold_eval;
  long tags_ok = 0;
  for (std::size_t i = 0; i < system.size(); ++i)
    for (std::size_t k = 0; k < system[i].words.size(); ++k) {
      system[i].words[k].head = parsed[i].heads[k];
      system[i].words[k].deprel = parsed[i].labels[k];
      tags_ok += parsed[i].upos[k] == gold_eval[i].words[k].upos;
      ++r.words;
    }
  auto scores = eval::attachment_scores(gold_eval, system);
  r.uas = scores.uas;
  r.las = scores.las;
  r.upos_accuracy = 100.0 * static_cast<double>(tags_ok) / static_cast<double>(std::max(1L, r.words));
  return r;
}

namespace {

// The training treebanks, concatenated, cut to max_sentences, labels reduced to the universal
// inventory when the parser shares an NMT vocabulary.
std::vector<ParserSentence> load_training_treebanks(const ParserTrainOptions& o, const std::vector<std::string>& train_specs) {
  std::vector<ParserSentence> train;
  for (const auto& spec : train_specs) {
    auto part = load_treebank(spec);
    train.insert(train.end(), std::make_move_iterator(part.begin()), std::make_move_iterator(part.end()));
  }
  if (o.max_sentences > 0 && train.size() > static_cast<std::size_t>(o.max_sentences))
    train.resize(static_cast<std::size_t>(o.max_sentences));  // LGP-NMT+: the first K sentences
  if (train.empty()) throw ConfigError("parser: no training sentences");
  if (!o.nmt_vocab.empty())  // the fixed universal inventory: subtypes reduced
    for (auto& s : train)
      for (auto& l : s.labels) l = universal_relation(l);
  return train;
}

// A new parser sized by its vocabularies (from the training data, or the NMT vocabulary with the
// universal inventories), or init_model's: continue from a trained parser (its vocabularies and
// options), e.g. to extend a run whose wall-clock budget ended while the dev score was still rising.
BuiltinParser make_parser(const ParserTrainOptions& o, const ParserOptions& model_options, const std::vector<ParserSentence>& train) {
  std::vector<std::vector<std::string>> forms;
  std::set<std::string> upos, labels;
  for (const auto& s : train) {
    forms.push_back(s.forms);
    upos.insert(s.upos.begin(), s.upos.end());
    labels.insert(s.labels.begin(), s.labels.end());
  }
  torch::manual_seed(o.seed);
  if (!o.init_model.empty()) return BuiltinParser::load(o.init_model);
  if (!o.nmt_vocab.empty()) {
    const auto nmt = Vocab::load(o.nmt_vocab);
    std::vector<std::string> tokens;
    for (std::size_t k = 0; k < nmt.size(); ++k) tokens.push_back(nmt.token(static_cast<int32_t>(k)));
    auto vocab = ParserVocab::for_nmt_vocab(tokens, ud_upos(), ud_relations(), o.fold_case);
    ParserOptions mo = model_options;
    if (mo.words != vocab.words() || mo.ngrams != vocab.ngrams() || mo.upos != 17 || mo.labels != 37)
      throw ConfigError("parser: with nmt_vocab the model sizes must be the vocabulary's (" + std::to_string(vocab.words()) +
                        " words, " + std::to_string(vocab.ngrams()) + " n-grams, 17 UPOS, 37 labels); got " + mo.to_json().dump());
    return BuiltinParser(BiaffineParser(mo), vocab);
  }
  auto vocab = ParserVocab::build(forms, {upos.begin(), upos.end()}, {labels.begin(), labels.end()}, o.min_word_frequency,
                                  o.min_ngram_frequency);
  ParserOptions mo = model_options;
  mo.words = vocab.words();
  mo.ngrams = vocab.ngrams();
  mo.upos = static_cast<int64_t>(vocab.upos().size());
  mo.labels = static_cast<int64_t>(vocab.labels().size());
  return BuiltinParser(BiaffineParser(mo), vocab);
}

struct ParserEpoch {
  double mean_loss = 0;
  bool out_of_time = false;  // max_minutes passed during the epoch (it stopped there)
};

// One epoch over batches of about batch_words words: arc, label and tag cross-entropies summed.
ParserEpoch train_parser_epoch(BuiltinParser& parser, torch::optim::Adam& optimizer, const std::vector<ParserSentence>& train,
                               const ParserTrainOptions& o, std::mt19937_64& rng, Clock::time_point start) {
  namespace F = torch::nn::functional;
  auto& model = parser.model();
  const auto ce = F::CrossEntropyFuncOptions().ignore_index(-100);
  model->train();
  double loss_sum = 0;
  int64_t batches = 0;
  ParserEpoch r;
  for (const auto& ids : make_plan(train, o.batch_words, &rng)) {
    std::vector<const ParserSentence*> batch;
    for (auto i : ids) batch.push_back(&train[i]);
    auto b = parser.make_batch(batch);
    auto out = model->forward(b);
    auto arc = F::cross_entropy(out.arc_scores.reshape({-1, out.arc_scores.size(-1)}), b.heads.reshape({-1}), ce);
    auto lab = model->label_scores(out, b.heads);
    auto label_loss = F::cross_entropy(lab.reshape({-1, lab.size(-1)}), b.labels.reshape({-1}), ce);
    auto tag_loss = F::cross_entropy(out.upos_logits.reshape({-1, out.upos_logits.size(-1)}), b.upos.reshape({-1}), ce);
    auto loss = arc + label_loss + tag_loss;
    optimizer.zero_grad();
    loss.backward();
    torch::nn::utils::clip_grad_norm_(model->parameters(), o.clip_norm);
    optimizer.step();
    loss_sum += loss.item<double>();
    ++batches;
    if (o.max_minutes > 0 && seconds_since(start) > o.max_minutes * 60) {
      r.out_of_time = true;
      break;
    }
  }
  r.mean_loss = loss_sum / std::max<int64_t>(1, batches);
  return r;
}

}  // namespace

nlohmann::json train_parser(const ParserTrainOptions& o, const ParserOptions& model_options,
                            const std::vector<std::string>& train_specs, const std::string& dev_conllu, const std::string& out_dir,
                            const std::string& hardware) {
  const std::vector<ParserSentence> train = load_training_treebanks(o, train_specs);
  const nlohmann::json train_conllu = train_specs;
  BuiltinParser parser = make_parser(o, model_options, train);
  const auto& vocab = parser.vocab();
  const ParserOptions mo = parser.model()->options();
  int64_t params = 0;
  for (const auto& p : parser.model()->parameters()) params += p.numel();
  log_info("parser: " + std::to_string(train.size()) + " training sentences, " + std::to_string(vocab.words()) + " words, " +
           std::to_string(vocab.ngrams()) + " n-grams, " + std::to_string(vocab.labels().size()) + " labels, " +
           std::to_string(params) + " parameters");
  torch::optim::Adam optimizer(parser.model()->parameters(),
                               torch::optim::AdamOptions(o.lr).betas({o.adam_beta1, o.adam_beta2}).eps(1e-12));
  std::filesystem::create_directories(out_dir);
  MetricsLog metrics(out_dir + "/metrics.jsonl", /*append=*/false);
  // the NMT trainer's validation policy: LAS higher is better, so the policy keeps the lowest
  // -LAS; patience counts epochs without a new best
  const ValidationPolicy policy{std::max(1, o.patience), /*halve_lr=*/false, HalvingRule::kNoNewBest, 0};
  TrainingCursor cursor;
  cursor.best = std::numeric_limits<double>::infinity();
  std::mt19937_64 rng(o.seed);
  const auto start = Clock::now();
  int best_epoch = 0, kept_epoch = 0, epochs = 0;
  ParserScores kept;  // the dev scores of the epoch in parser.pt
  const bool keep_last = o.keep == "last";
  for (int epoch = 1; epoch <= o.max_epochs; ++epoch) {
    const ParserEpoch trained = train_parser_epoch(parser, optimizer, train, o, rng, start);
    epochs = epoch;
    auto dev = evaluate_parser(parser, dev_conllu);
    metrics.write({{"epoch", epoch}, {"train_loss", trained.mean_loss}, {"dev_uas", dev.uas},
                   {"dev_las", dev.las}, {"dev_upos", dev.upos_accuracy}, {"elapsed_s", seconds_since(start)}});
    log_info("parser epoch " + std::to_string(epoch) + ": loss " + std::to_string(trained.mean_loss) + ", dev UAS " +
             std::to_string(dev.uas) + " LAS " + std::to_string(dev.las) + ", " + std::to_string(static_cast<int>(seconds_since(start))) + " s");
    cursor.epoch = epoch;
    const ValidationDecision decision = apply_validation(policy, cursor, -dev.las, 0, 0);
    if (decision.improved) best_epoch = epoch;
    if (decision.improved || keep_last) {
      kept_epoch = epoch;
      kept = dev;
      parser.save(out_dir + "/parser.pt", {{"train", o.to_json()}, {"train_conllu", train_conllu}, {"epoch", epoch}});
    } else if (decision.stop()) {
      log_info("parser: early stop, no dev LAS improvement for " + std::to_string(o.patience) + " epochs");
      break;
    }
    if (trained.out_of_time) {
      log_info("parser: wall-clock budget reached");
      break;
    }
  }
  nlohmann::json summary = {{"train_conllu", train_conllu}, {"dev_conllu", dev_conllu}, {"train_sentences", train.size()},
                            {"best_epoch", best_epoch},     {"kept_epoch", kept_epoch}, {"epochs", epochs},
                            {"dev_uas", kept.uas},          {"dev_las", kept.las},      {"dev_upos", kept.upos_accuracy},
                            {"train_seconds", seconds_since(start)}, {"hardware", hardware},
                            {"model", mo.to_json()},        {"train", o.to_json()}};
  write_file_atomically(out_dir + "/summary.json", summary.dump(2) + "\n");
  return summary;
}

}  // namespace synmt::parser
