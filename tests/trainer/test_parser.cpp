#include <gtest/gtest.h>

#include <torch/serialize.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "trainer/archive_io.h"
#include "eval/trees.h"
#include "parse/conllu.h"
#include "trainer/parser/builtin_parser.h"

namespace {
const std::string kEwt = std::string(SYNMT_MIRROR) + "/ud/UD_English-EWT/";

std::string first_sentences(const std::string& path, std::size_t n, const std::string& name) {
  auto s = synmt::parse::read_conllu(path);
  s.resize(std::min(n, s.size()));
  std::filesystem::create_directories(SYNMT_TEST_TMP);
  const std::string out = std::string(SYNMT_TEST_TMP) + "/" + name;
  synmt::parse::write_conllu_file(out, s);
  return out;
}
}  // namespace

TEST(Parser, TreebankRanges) {
  auto t = synmt::parser::TreebankSpec::parse("a/b.conllu.gz@10:20");
  EXPECT_EQ(t.path, "a/b.conllu.gz");
  EXPECT_EQ(t.begin, 10u);
  EXPECT_EQ(t.end, 20u);
  EXPECT_EQ(synmt::parser::TreebankSpec::parse("x@:5").end, 5u);
  EXPECT_EQ(synmt::parser::TreebankSpec::parse("x@5:").begin, 5u);
  EXPECT_EQ(synmt::parser::TreebankSpec::parse("x").path, "x");
  EXPECT_THROW(synmt::parser::TreebankSpec::parse("x@5"), synmt::ConfigError);
  EXPECT_THROW(synmt::parser::TreebankSpec::parse("x@5:5"), synmt::ConfigError);
}

TEST(Parser, TreebankRangeSelectsThoseSentencesOfEwt) {
  if (!std::filesystem::exists(kEwt)) GTEST_SKIP() << "no EWT";
  auto all = synmt::parser::load_treebank(kEwt + "en_ewt-ud-dev.conllu.gz");
  auto part = synmt::parser::load_treebank(kEwt + "en_ewt-ud-dev.conllu.gz@100:150");
  ASSERT_EQ(part.size(), 50u);
  EXPECT_EQ(part[0].forms, all[100].forms);
  EXPECT_EQ(part[49].forms, all[149].forms);
}

TEST(Parser, CharacterNgramsOfTwoToFour) {
  EXPECT_EQ(synmt::parser::char_ngrams("ab"), (std::vector<std::string>{"^a", "ab", "b$", "^ab", "ab$", "^ab$"}));
  // code points, not bytes
  EXPECT_EQ(synmt::parser::char_ngrams("\xC3\xA9")[0], "^\xC3\xA9");
}

// A short run on real EWT data: it learns (dev UAS well above chance), every parse is a tree with
// one root, and a saved model parses identically after loading.
TEST(Parser, LearnsFromEwtAndAlwaysOutputsTrees) {
  if (!std::filesystem::exists(kEwt)) GTEST_SKIP() << "no EWT";
  const auto train = first_sentences(kEwt + "en_ewt-ud-train.conllu.gz", 400, "ewt400.conllu");
  const auto dev = first_sentences(kEwt + "en_ewt-ud-dev.conllu.gz", 150, "ewtdev150.conllu");
  synmt::parser::ParserTrainOptions o = synmt::parser::ParserTrainOptions::from_json({{"max_epochs", 4}, {"patience", 10}});
  synmt::parser::ParserOptions mo = synmt::parser::ParserOptions::from_json({{"lstm_hidden", 64}, {"arc_dim", 64}, {"label_dim", 32}});
  const std::string dir = std::string(SYNMT_TEST_TMP) + "/parser_run";
  auto summary = synmt::parser::train_parser(o, mo, {train}, dev, dir, "test");
  // random trees score ~8% on EWT; after 4 short epochs the parser is far above that
  EXPECT_GT(summary["dev_uas"].get<double>(), 20.0);
  auto parser = synmt::parser::BuiltinParser::load(dir + "/parser.pt");
  // the saved model is the trained one: loaded, it scores the best epoch's dev UAS and LAS exactly
  const auto reloaded = synmt::parser::evaluate_parser(parser, dev);
  EXPECT_NEAR(reloaded.uas, summary["dev_uas"].get<double>(), 1e-9);
  EXPECT_NEAR(reloaded.las, summary["dev_las"].get<double>(), 1e-9);
  std::vector<std::vector<std::string>> sentences;
  for (const auto& s : synmt::parser::load_treebank(dev)) sentences.push_back(s.forms);
  auto parsed = parser.parse(sentences);
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    synmt::eval::Heads heads{-1};
    heads.insert(heads.end(), parsed[i].heads.begin(), parsed[i].heads.end());
    EXPECT_TRUE(synmt::eval::is_tree(heads, true)) << "sentence " << i;
    EXPECT_EQ(parsed[i].labels.size(), sentences[i].size());
  }
  // parsing is deterministic: a second load parses the same (no dropout or sampling at inference)
  auto again = synmt::parser::BuiltinParser::load(dir + "/parser.pt").parse(sentences);
  for (std::size_t i = 0; i < parsed.size(); ++i) EXPECT_EQ(parsed[i].heads, again[i].heads);
  EXPECT_THROW(synmt::parser::BuiltinParser::load(dir + "/metrics.jsonl"), synmt::InputError);
}

// keep: best saves the epoch with the best dev LAS; keep: last (LGP-NMT+'s "trained for 10 epochs")
// the parser after the last epoch, with no early stop. At learning rate 0 dev LAS never improves
// after epoch 1, so the two differ: best keeps epoch 1 (and stops at patience), last keeps epoch 3.
TEST(Parser, KeepLastSavesTheParserAfterTheLastEpoch) {
  if (!std::filesystem::exists(kEwt)) GTEST_SKIP() << "no EWT";
  const auto train = first_sentences(kEwt + "en_ewt-ud-train.conllu.gz", 30, "ewt30.conllu");
  const auto dev = first_sentences(kEwt + "en_ewt-ud-dev.conllu.gz", 20, "ewtdev20.conllu");
  const auto mo = synmt::parser::ParserOptions::from_json({{"lstm_hidden", 16}, {"arc_dim", 16}, {"label_dim", 8}});
  auto saved_epoch = [](const std::string& path) {
    torch::serialize::InputArchive archive;
    synmt::load_archive(archive, path, torch::Device(torch::kCPU), "parser model");
    c10::IValue extra;
    EXPECT_TRUE(archive.try_read("synmt_extra", extra));
    return nlohmann::json::parse(extra.toStringRef())["epoch"].get<int>();
  };
  for (const std::string keep : {"best", "last"}) {
    const auto o = synmt::parser::ParserTrainOptions::from_json({{"max_epochs", 3}, {"patience", 1}, {"lr", 0.0}, {"keep", keep}});
    const std::string dir = std::string(SYNMT_TEST_TMP) + "/parser_keep_" + keep;
    std::filesystem::remove_all(dir);
    const auto summary = synmt::parser::train_parser(o, mo, {train}, dev, dir, "test");
    const int expected = keep == "last" ? 3 : 1;
    EXPECT_EQ(saved_epoch(dir + "/parser.pt"), expected) << keep;
    EXPECT_EQ(summary["kept_epoch"].get<int>(), expected) << keep;
    EXPECT_EQ(summary["best_epoch"].get<int>(), 1) << keep;
    EXPECT_EQ(summary["epochs"].get<int>(), keep == "last" ? 3 : 2) << keep;  // best: stops after 1 epoch without a gain
  }
  EXPECT_THROW(synmt::parser::ParserTrainOptions::from_json({{"keep", "first"}}), synmt::ConfigError);
}
