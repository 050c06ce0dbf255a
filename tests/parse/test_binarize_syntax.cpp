// synmt-binarize data --src-parse: the dataset carries, per source sub-word, Pascal's parent middle
// position, SISA's parent sub-word, the label and UPOS ids from the pair's inventories and the word
// index; every split gets the same id for the same label; mismatches are refused.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "core/error.h"
#include "core/hdf5_file.h"
#include "core/sha256.h"
#include "parse/parse_cache.h"
#include "parse/syntax_inventory.h"
#include "preprocess/dataset_file.h"
#include "tests/test_util.h"

namespace {
using synmt::test::tmp_path;
using synmt::test::write_tmp;

int run(const std::string& args) {
  return std::system((std::string(SYNMT_BIN_DIR) + "/synmt-binarize " + args + " 2> " + tmp_path("binarize.err")).c_str());
}

std::string last_error() {
  std::ifstream in(tmp_path("binarize.err"));
  return {std::istreambuf_iterator<char>(in), {}};
}

// A parse cache of `tok` (its key is the file's sha256).
std::string cache_of(const std::string& name, const std::string& tok, const synmt::parse::ParsedCorpus& parses) {
  auto p = parses;
  p.corpus_sha256 = synmt::sha256_file(tok);
  p.parser_id = "test";
  const auto path = tmp_path(name);
  synmt::parse::write_parse_cache(path, p);
  return path;
}

std::string read_error(const std::string& path, const std::string& labels_hash = "", const std::string& upos_hash = "") {
  try {
    synmt::read_parallel_data(path, "", "", labels_hash, upos_hash);
  } catch (const synmt::InputError& e) {
    return e.what();
  }
  return "";
}

// The sentence "the blackbirds sings" + "hello", BPE-segmented, with its parse cache, vocabulary
// and inventories built by the tool.
struct Sample {
  std::string tok, bpe, cache, vocab, labels, upos;
  Sample() {
    tok = write_tmp("syn.tok", "the blackbirds sings\nhello\n");
    bpe = write_tmp("syn.bpe", "the black@@ bird@@ s sing@@ s\nhello\n");
    synmt::parse::ParsedCorpus p;
    p.add({2, 3, 0}, {"det", "nsubj", "root"}, {"DET", "NOUN", "VERB"});
    p.add({0}, {"root"}, {"INTJ"});
    cache = cache_of("syn.h5", tok, p);
    vocab = tmp_path("syn.vocab");
    labels = tmp_path("syn.labels");
    upos = tmp_path("syn.upos");
    EXPECT_EQ(run("vocab -i " + bpe + " -o " + vocab), 0);
    EXPECT_EQ(run("inventory --parse " + cache + " --parse-corpus " + tok + " --labels-out " + labels + " --upos-out " + upos), 0)
        << last_error();
  }
  std::string data_args(const std::string& src) const {
    return "data --src " + src + " --tgt " + src + " --src-vocab " + vocab + " --tgt-vocab " + vocab;
  }
  std::string syntax_args(const std::string& parse, const std::string& corpus) const {
    return " --src-parse " + parse + " --src-parse-corpus " + corpus + " --src-labels " + labels + " --src-upos " + upos;
  }
};
}  // namespace

TEST(BinarizeSyntax, SubwordFieldsFromTheParseCache) {
  Sample s;
  const auto data = tmp_path("syn.data.h5");
  ASSERT_EQ(run(s.data_args(s.bpe) + s.syntax_args(s.cache, s.tok) + " -o " + data), 0) << last_error();
  auto d = synmt::read_parallel_data(data, "", "", synmt::sha256_file(s.labels), synmt::sha256_file(s.upos));
  ASSERT_TRUE(d.has_source_syntax());
  ASSERT_TRUE(d.has_source_upos());
  EXPECT_EQ(d.src_parent_middle, (std::vector<float>{2.0f, 4.5f, 4.5f, 4.5f, 4.5f, 4.5f, 0.0f}));
  EXPECT_EQ(d.src_parent_first, (std::vector<int32_t>{1, 4, 4, 4, 4, 4, 0}));
  EXPECT_EQ(d.src_word, (std::vector<int32_t>{0, 1, 1, 1, 2, 2, 0}));
  // inventories: <unk> det nsubj root / <unk> DET INTJ NOUN VERB
  EXPECT_EQ(d.src_label, (std::vector<int32_t>{1, 2, 2, 2, 3, 3, 3}));
  EXPECT_EQ(d.src_upos, (std::vector<int32_t>{1, 3, 3, 3, 4, 4, 2}));
  EXPECT_EQ(d.src_label_names, (std::vector<std::string>{"<unk>", "det", "nsubj", "root"}));
  EXPECT_EQ(d.src_upos_names, (std::vector<std::string>{"<unk>", "DET", "INTJ", "NOUN", "VERB"}));
  EXPECT_EQ(d.attributes.at("src_parse_parser_id"), "test");
  EXPECT_EQ(d.attributes.at(synmt::kSrcLabelInventoryAttr), synmt::sha256_file(s.labels));
  EXPECT_EQ(d.attributes.at(synmt::kSrcLabelCountAttr), "4");
  EXPECT_EQ(d.attributes.at(synmt::kSrcUposInventoryAttr), synmt::sha256_file(s.upos));
  EXPECT_EQ(d.attributes.at(synmt::kSrcUposCountAttr), "5");
  EXPECT_EQ(d.attributes.at("src_label_unknown_words"), "0");
  EXPECT_EQ(d.attributes.at("src_subwords"), "bpe");
  auto spans = d.src_word_spans(0);
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_EQ(spans[1], (std::pair<int32_t, int32_t>{1, 3}));
  // a line whose words do not match the cache, a cache of another corpus, a parse without
  // inventories, and other inventories than the dataset's are refused
  const auto bad = write_tmp("syn_bad.bpe", "the black@@ bird@@ s\nhello\n");
  EXPECT_NE(run(s.data_args(bad) + s.syntax_args(s.cache, s.tok) + " -o " + tmp_path("syn_bad.h5")), 0);
  EXPECT_NE(last_error().find("syn_bad.bpe:1: does not match the parse cache"), std::string::npos) << last_error();
  EXPECT_NE(run(s.data_args(s.bpe) + s.syntax_args(s.cache, s.bpe) + " -o " + tmp_path("syn_bad2.h5")), 0);
  EXPECT_NE(last_error().find("parse cache belongs to another corpus"), std::string::npos) << last_error();
  EXPECT_NE(run(s.data_args(s.bpe) + " --src-parse " + s.cache + " --src-parse-corpus " + s.tok + " -o " + tmp_path("syn_bad3.h5")), 0);
  EXPECT_NE(last_error().find("--src-labels"), std::string::npos) << last_error();
  EXPECT_NE(read_error(data, "0000").find("inventory mismatch"), std::string::npos);
  EXPECT_NE(read_error(data, "", "0000").find("inventory mismatch"), std::string::npos);
}

// Issue #12's acceptance test: the train and test caches list labels and UPOS in different orders
// (their own ids differ), the binarised splits give the same id to the same name; a label or UPOS
// the training split never had maps to 0 (<unk>) and is counted.
TEST(BinarizeSyntax, SameLabelSameIdInEverySplit) {
  Sample s;  // the "training" split
  const auto test_tok = write_tmp("syn_test.tok", "hello\nthe birds sings\n");
  const auto test_bpe = write_tmp("syn_test.bpe", "hello\nthe bird@@ s sing@@ s\n");
  synmt::parse::ParsedCorpus tp;  // first occurrences: root, det, nsubj / INTJ, DET, NOUN, VERB
  tp.add({0}, {"root"}, {"INTJ"});
  tp.add({2, 3, 0}, {"det", "vocative", "root"}, {"DET", "X", "VERB"});
  const auto test_cache = cache_of("syn_test.h5", test_tok, tp);
  ASSERT_NE(tp.label_names, (std::vector<std::string>{"det", "nsubj", "root"}));  // the caches' own ids differ
  const auto train = tmp_path("syn_train.data.h5"), test = tmp_path("syn_test.data.h5");
  ASSERT_EQ(run(s.data_args(s.bpe) + s.syntax_args(s.cache, s.tok) + " -o " + train), 0) << last_error();
  ASSERT_EQ(run(s.data_args(test_bpe) + s.syntax_args(test_cache, test_tok) + " -o " + test), 0) << last_error();
  EXPECT_NE(last_error().find("vocative"), std::string::npos) << "the unknown label is logged: " << last_error();
  auto a = synmt::read_parallel_data(train, "", "", synmt::sha256_file(s.labels), synmt::sha256_file(s.upos));
  auto b = synmt::read_parallel_data(test, "", "", synmt::sha256_file(s.labels), synmt::sha256_file(s.upos));
  EXPECT_EQ(a.src_label_names, b.src_label_names);
  EXPECT_EQ(a.src_upos_names, b.src_upos_names);
  // train: the(0) black@@ bird@@ s(1-3) sing@@ s(4-5) | hello(6); test: hello(0) | the(1) bird@@ s(2-3) sing@@ s(4-5)
  EXPECT_EQ(b.src_label[1], a.src_label[0]);  // det
  EXPECT_EQ(b.src_label[4], a.src_label[4]);  // root (sings)
  EXPECT_EQ(b.src_label[0], a.src_label[6]);  // root (hello)
  EXPECT_EQ(b.src_upos[0], a.src_upos[6]);    // INTJ
  EXPECT_EQ(b.src_upos[1], a.src_upos[0]);    // DET
  EXPECT_EQ(b.src_upos[4], a.src_upos[4]);    // VERB
  EXPECT_EQ(b.src_label_names[static_cast<std::size_t>(b.src_label[1])], "det");
  EXPECT_EQ(b.src_label[2], 0);  // vocative: not in training
  EXPECT_EQ(b.src_label[3], 0);
  EXPECT_EQ(b.src_upos[2], 0);   // X: not in training
  EXPECT_EQ(b.attributes.at("src_label_unknown_words"), "1");
  EXPECT_EQ(b.attributes.at("src_upos_unknown_words"), "1");
}

// Word-level pairs (subwords: none): a token is a word, even one ending in "@@".
TEST(BinarizeSyntax, WordLevelTextWithAndWithoutParses) {
  Sample s;
  const auto data = tmp_path("syn_words.data.h5");
  const auto words = write_tmp("syn_words.txt", "the blackbirds sings\nhello\n");
  const auto vocab = tmp_path("syn_words.vocab");
  ASSERT_EQ(run("vocab -i " + words + " -o " + vocab), 0);
  const auto args = "data --src " + words + " --tgt " + words + " --src-vocab " + vocab + " --tgt-vocab " + vocab;
  ASSERT_EQ(run(args + " --subwords none" + s.syntax_args(s.cache, s.tok) + " -o " + data), 0) << last_error();
  auto d = synmt::read_parallel_data(data, "", "");
  EXPECT_EQ(d.src_word, (std::vector<int32_t>{0, 1, 2, 0}));
  EXPECT_EQ(d.src_parent_first, (std::vector<int32_t>{1, 2, 2, 0}));
  EXPECT_EQ(d.src_parent_middle, (std::vector<float>{1.0f, 2.0f, 2.0f, 0.0f}));
  EXPECT_EQ(d.attributes.at("src_subwords"), "none");
  // with BPE marks the same words need the parse of the word text, not of the pieces: "blackbirds"
  // has no "@@", so the spans and parents are the word-level ones
  ASSERT_EQ(run(args + " --subwords bpe" + s.syntax_args(s.cache, s.tok) + " -o " + data), 0) << last_error();
  d = synmt::read_parallel_data(data, "", "");
  EXPECT_EQ(d.src_word, (std::vector<int32_t>{0, 1, 2, 0}));
  EXPECT_EQ(d.src_parent_first, (std::vector<int32_t>{1, 2, 2, 0}));
  EXPECT_EQ(d.attributes.at("src_subwords"), "bpe");
  // without a parse every dataset still carries the word spans (they need only the sub-word marks)
  ASSERT_EQ(run(s.data_args(s.bpe) + " -o " + data), 0) << last_error();
  d = synmt::read_parallel_data(data, "", "", "ignored: no syntax", "ignored: no syntax");
  EXPECT_FALSE(d.has_source_syntax());
  EXPECT_FALSE(d.has_source_upos());
  EXPECT_EQ(d.src_word, (std::vector<int32_t>{0, 1, 1, 1, 2, 2, 0}));
  EXPECT_NE(run(s.data_args(s.bpe) + " --subwords chars -o " + data), 0);
}

// Datasets written before the inventories (no src_upos, per-cache label ids, no inventory
// attributes) still read, with UPOS absent; a reader that asks for an inventory refuses them.
// Inconsistent arrays are refused with the file name.
TEST(BinarizeSyntax, OlderAndInconsistentDatasets) {
  synmt::ParallelData old;
  old.add({4, 5}, {4});
  old.src_parent_middle = {1.0f, 1.0f};
  old.src_parent_first = {1, 1};
  old.src_label = {1, 0};
  old.src_word = {0, 1};
  old.src_label_names = {"root", "det"};
  old.attributes = {{"src_vocab_sha256", "v"}, {"tgt_vocab_sha256", "v"}};
  const auto old_path = tmp_path("syn_old.h5");
  synmt::write_parallel_data(old_path, old);
  auto d = synmt::read_parallel_data(old_path, "", "");
  EXPECT_TRUE(d.has_source_syntax());
  EXPECT_FALSE(d.has_source_upos());
  EXPECT_NE(read_error(old_path, "abc").find("built without an inventory"), std::string::npos);

  auto bad = old;
  bad.src_label = {1, 7};  // id outside the names
  synmt::write_parallel_data(tmp_path("syn_bad_id.h5"), bad);
  EXPECT_NE(read_error(tmp_path("syn_bad_id.h5")).find("syn_bad_id.h5: src_label holds id 7"), std::string::npos);
  bad = old;
  bad.src_word = {0, 2};  // skips a word
  synmt::write_parallel_data(tmp_path("syn_bad_word.h5"), bad);
  EXPECT_NE(read_error(tmp_path("syn_bad_word.h5")).find("src_word"), std::string::npos);
  bad = old;
  bad.src_upos = {1, 1};
  bad.src_upos_names = {"<unk>", "NOUN"};
  bad.attributes[synmt::kSrcUposCountAttr] = "3";  // disagrees with the names
  synmt::write_parallel_data(tmp_path("syn_bad_count.h5"), bad);
  EXPECT_NE(read_error(tmp_path("syn_bad_count.h5")).find("src_upos_count=3"), std::string::npos);
  {  // an array cut short (written around the writer's own checks)
    synmt::H5File in(old_path, synmt::H5File::Mode::Read);
    synmt::H5File out(tmp_path("syn_short.h5"), synmt::H5File::Mode::Create);
    for (const char* a : {"src_tokens", "tgt_tokens", "src_parent_first", "src_word"}) out.write(a, in.read_int32(a));
    for (const char* a : {"src_offsets", "tgt_offsets"}) out.write(a, in.read_int64(a));
    out.write("src_parent_middle", in.read_float("src_parent_middle"));
    out.write("src_label", std::vector<int32_t>{1});
    for (const char* a : {"format", "src_vocab_sha256", "tgt_vocab_sha256", "src_label_names"}) out.set_attribute(a, in.attribute(a));
  }
  EXPECT_NE(read_error(tmp_path("syn_short.h5")).find("src_label has 1 entries for 2 source tokens"), std::string::npos);
}
