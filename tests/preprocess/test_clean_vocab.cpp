#include <gtest/gtest.h>

#include "tests/test_util.h"

#include "core/error.h"
#include "preprocess/clean.h"
#include "preprocess/vocab.h"

TEST(Clean, DropsByReasonWithCleanCorpusSemantics) {
  synmt::CleanOptions o;
  o.max_tokens = 5;
  o.max_ratio = 2.0;
  o.dedupe = true;
  synmt::CorpusCleaner c(o);
  EXPECT_TRUE(c.keep("a b", "c d"));
  EXPECT_FALSE(c.keep("", "x"));
  EXPECT_FALSE(c.keep("a b c d e f", "a"));     // too long
  EXPECT_FALSE(c.keep("a b c d e", "a b"));      // ratio 2.5
  EXPECT_TRUE(c.keep("a b c d", "a b"));         // ratio 2.0 is allowed
  EXPECT_FALSE(c.keep("a b", "c d"));            // duplicate
  EXPECT_EQ(c.dropped().at("empty"), 1);
  EXPECT_EQ(c.dropped().at("too_long"), 1);
  EXPECT_EQ(c.dropped().at("length_ratio"), 1);
  EXPECT_EQ(c.dropped().at("duplicate"), 1);
  EXPECT_EQ(c.kept(), 2);
  EXPECT_EQ(c.seen(), 6);
}

TEST(Vocab, OrdersByFrequencyAndCutsByThreshold) {
  synmt::VocabOptions o;
  o.min_frequency = 2;
  auto v = synmt::Vocab::build({{"rare", 1}, {"b", 5}, {"a", 5}, {"c", 9}}, o);
  ASSERT_EQ(v.size(), 7u);
  EXPECT_EQ(v.token(4), "c");
  EXPECT_EQ(v.token(5), "b");  // tie broken by first occurrence
  EXPECT_EQ(v.id("rare"), synmt::Vocab::kUnk);
  EXPECT_EQ(v.decode({4, 5, synmt::Vocab::kEos, 6}), "c b");
}

// Punctuation tokens for SA-NMT's mask_punct_heads: no letter and no digit once "@@" and Moses'
// escapes are undone; specials are never counted.
TEST(Vocab, PunctuationTokens) {
  for (const char* t : {".", ",", "&quot;", "&apos;", "&amp;", "&#91;", "...", "@@", "«", "—", "?@@", "„"})
    EXPECT_TRUE(synmt::is_punctuation_token(t)) << t;
  for (const char* t : {"a", "Haus", "3", "3.5", "&quot;Haus", "d@@", "п", "日本", "", "<unk>"})
    EXPECT_FALSE(synmt::is_punctuation_token(t)) << t;
  auto v = synmt::Vocab::build({{"Haus", 5}, {".", 4}, {"&quot;", 3}, {"3", 2}}, {});
  auto ids = v.punctuation_ids();
  ASSERT_EQ(ids.size(), 2u);
  EXPECT_EQ(v.token(ids[0]), ".");
  EXPECT_EQ(v.token(ids[1]), "&quot;");
}

// A count must be the whole field: "12abc" once loaded as 12 (std::stoll stops at the first
// non-digit); each refusal names the line.
TEST(Vocab, LoadRefusesCountsThatAreNotIntegers) {
  const std::string specials = "<pad>\t0\n<unk>\t0\n<s>\t0\n</s>\t0\n";
  const auto ok = synmt::Vocab::load(synmt::test::write_tmp("ok.vocab", specials + "Haus\t12\n"));
  ASSERT_EQ(ok.size(), 5u);
  EXPECT_EQ(ok.token(4), "Haus");
  for (const char* bad : {"Haus\t12abc\n", "Haus\t\n", "Haus\t1.5\n", "Haus\tx\n", "Haus\t-3\n", "Haus\t99999999999999999999\n"}) {
    try {
      synmt::Vocab::load(synmt::test::write_tmp("bad.vocab", specials + bad));
      ADD_FAILURE() << "accepted " << bad;
    } catch (const synmt::InputError& e) {
      EXPECT_EQ(e.line(), 5u) << e.what();
    }
  }
}
