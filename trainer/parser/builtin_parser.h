#pragma once
// Training and running the builtin parser: treebank loading, batching, the training loop (Adam,
// dev LAS for keep-best, early stopping, wall-clock budget), MST decoding and evaluation with
// eval/'s CoNLL 2018 attachment scores, and BuiltinParser, the inference object that the
// synmt-parse builtin backend (and LGP-NMT's DEP baseline) use.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "trainer/parser/biaffine_parser.h"
#include "trainer/parser/parser_vocab.h"

namespace synmt::parser {

inline constexpr const char* kParserFormat = "synmt-parser-1";

struct ParserSentence {
  std::vector<std::string> forms, upos, labels;
  std::vector<int32_t> heads;  // 1-based, 0 = root
};

// A treebank spec is a CoNLL-U path, optionally with a sentence range "path@BEGIN:END" (0-based,
// END exclusive, either may be empty): languages without a UD training set train on a dev file
// plus part of a test file and hold the rest out.
struct TreebankSpec {
  std::string path;
  std::size_t begin = 0, end = static_cast<std::size_t>(-1);
  static TreebankSpec parse(const std::string& spec);  // ConfigError on a malformed range
};

// The syntactic words of a CoNLL-U treebank (first max_sentences when > 0: LGP-NMT+'s K).
std::vector<ParserSentence> load_treebank(const std::string& spec, std::size_t max_sentences = 0);

struct ParserTrainOptions {
  int max_epochs = 30;
  double max_minutes = 0;
  double lr = 2e-3, adam_beta1 = 0.9, adam_beta2 = 0.9;  // Dozat & Manning
  double clip_norm = 5.0;
  int batch_words = 1500;   // words per batch (sentences sorted by length inside windows)
  int patience = 5;         // epochs without dev LAS improvement
  // best: parser.pt is the epoch with the best dev LAS, training stops after `patience` epochs
  // without one | last: parser.pt is the parser after max_epochs, no early stop (LGP-NMT+'s
  // "trained for 10 epochs in advance")
  std::string keep = "best";
  int min_word_frequency = 2, min_ngram_frequency = 2;
  int max_sentences = 0;    // >0: train on the first K sentences (LGP-NMT+ pre-training)
  std::string init_model;   // continue from this parser.pt (its vocabularies and model options)
  // LGP-NMT+ pre-training: the words are this NMT source vocabulary's (ids and n-grams, see
  // ParserVocab::for_nmt_vocab), tags and labels UD's universal sets (subtypes reduced); fold_case
  // when the NMT corpus is lower-cased.
  std::string nmt_vocab;
  bool fold_case = false;
  uint64_t seed = 1;
  int threads = 0;

  // The JSON keys, once: from_json / to_json (core/config.h) visit them.
  template <class Self, class Visit>
  static void fields(Self& o, Visit&& v) {
    v("max_epochs", o.max_epochs);
    v("max_minutes", o.max_minutes);
    v("lr", o.lr);
    v("adam_beta1", o.adam_beta1);
    v("adam_beta2", o.adam_beta2);
    v("clip_norm", o.clip_norm);
    v("batch_words", o.batch_words);
    v("patience", o.patience);
    v("keep", o.keep);
    v("min_word_frequency", o.min_word_frequency);
    v("min_ngram_frequency", o.min_ngram_frequency);
    v("max_sentences", o.max_sentences);
    v("init_model", o.init_model);
    v("nmt_vocab", o.nmt_vocab);
    v("fold_case", o.fold_case);
    v("seed", o.seed);
    v("threads", o.threads);
  }
  static ParserTrainOptions from_json(const nlohmann::json& j);
  nlohmann::json to_json() const;
};

struct ParsedSentence {
  std::vector<int32_t> heads;
  std::vector<std::string> labels, upos;
};

struct ParserScores {
  double uas = 0, las = 0, upos_accuracy = 0;
  long words = 0;
  double seconds = 0, sentences_per_second = 0;
};

class BuiltinParser {
 public:
  BuiltinParser(BiaffineParser model, ParserVocab vocab);
  static BuiltinParser load(const std::string& path);  // InputError on a foreign/corrupt file
  void save(const std::string& path, const nlohmann::json& extra) const;
  // Parses sentences of word forms: well-formed trees (one root, MST), labels, UPOS. threads > 1:
  // batches are shared out to that many threads, each with a single-threaded BLAS (0 = the
  // runtime's thread count).
  std::vector<ParsedSentence> parse(const std::vector<std::vector<std::string>>& sentences, int batch_words = 4000,
                                    int threads = 0);
  ParserBatch make_batch(const std::vector<const ParserSentence*>& sentences) const;
  BiaffineParser& model() { return model_; }

 private:
  void parse_batch(const std::vector<ParserSentence>& data, const std::vector<std::size_t>& ids,
                   std::vector<ParsedSentence>& out);

 public:
  const ParserVocab& vocab() const { return vocab_; }

 private:
  BiaffineParser model_;
  ParserVocab vocab_;
};

// Parses `gold`'s word forms and scores them with eval/ (UAS/LAS as the CoNLL 2018 script).
ParserScores evaluate_parser(BuiltinParser& parser, const std::string& gold_conllu);

// Trains on `train_conllu`, keeps the best dev-LAS model as out_dir/parser.pt; writes
// out_dir/metrics.jsonl and returns the summary (also written as out_dir/summary.json).
nlohmann::json train_parser(const ParserTrainOptions& options, const ParserOptions& model_options,
                            const std::vector<std::string>& train_specs, const std::string& dev_spec, const std::string& out_dir,
                            const std::string& hardware);

}  // namespace synmt::parser
