// synmt-binarize data --src-parse: the dataset carries, per source sub-word, Pascal's parent middle
// position, SISA's parent sub-word, the label and the word index; mismatches are refused.
#include <gtest/gtest.h>

#include <cstdlib>

#include "core/sha256.h"
#include "parse/parse_cache.h"
#include "preprocess/dataset_file.h"
#include "tests/test_util.h"

namespace {
int run(const std::string& args) {
  return std::system((std::string(SYNMT_BIN_DIR) + "/synmt-binarize " + args + " 2> " + synmt::test::tmp_path("binarize.err")).c_str());
}
}  // namespace

TEST(BinarizeSyntax, SubwordFieldsFromTheParseCache) {
  const auto tok = synmt::test::write_tmp("syn.tok", "the blackbirds sings\nhello\n");
  const auto bpe = synmt::test::write_tmp("syn.bpe", "the black@@ bird@@ s sing@@ s\nhello\n");
  synmt::parse::ParsedCorpus p;
  p.add({2, 3, 0}, {"det", "nsubj", "root"}, {"DET", "NOUN", "VERB"});
  p.add({0}, {"root"}, {"INTJ"});
  p.corpus_sha256 = synmt::sha256_file(tok);
  p.parser_id = "test";
  const auto cache = synmt::test::tmp_path("syn.h5");
  synmt::parse::write_parse_cache(cache, p);
  const auto vocab = synmt::test::tmp_path("syn.vocab"), data = synmt::test::tmp_path("syn.data.h5");
  ASSERT_EQ(run("vocab -i " + bpe + " -o " + vocab), 0);
  const std::string common = "data --src " + bpe + " --tgt " + bpe + " --src-vocab " + vocab + " --tgt-vocab " + vocab;
  ASSERT_EQ(run(common + " --src-parse " + cache + " --src-parse-corpus " + tok + " -o " + data), 0);
  auto d = synmt::read_parallel_data(data, "", "");
  ASSERT_TRUE(d.has_source_syntax());
  EXPECT_EQ(d.src_parent_middle, (std::vector<float>{2.0f, 4.5f, 4.5f, 4.5f, 4.5f, 4.5f, 0.0f}));
  EXPECT_EQ(d.src_parent_first, (std::vector<int32_t>{1, 4, 4, 4, 4, 4, 0}));
  EXPECT_EQ(d.src_word, (std::vector<int32_t>{0, 1, 1, 1, 2, 2, 0}));
  EXPECT_EQ(d.src_label_names[static_cast<std::size_t>(d.src_label[1])], "nsubj");
  EXPECT_EQ(d.attributes.at("src_parse_parser_id"), "test");
  // a line whose words do not match the cache, and a cache of another corpus, are refused
  const auto bad = synmt::test::write_tmp("syn_bad.bpe", "the black@@ bird@@ s\nhello\n");
  EXPECT_NE(run("data --src " + bad + " --tgt " + bad + " --src-vocab " + vocab + " --tgt-vocab " + vocab + " --src-parse " + cache +
                " --src-parse-corpus " + tok + " -o " + synmt::test::tmp_path("syn_bad.h5")),
            0);
  EXPECT_NE(run(common + " --src-parse " + cache + " --src-parse-corpus " + bpe + " -o " + synmt::test::tmp_path("syn_bad2.h5")), 0);
}
