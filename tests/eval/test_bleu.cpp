#include <gtest/gtest.h>

#include <cmath>

#include "eval/bleu.h"
#include "eval/bleu_tokenizers.h"

using synmt::eval::Bleu;
using synmt::eval::BleuOptions;

TEST(Bleu, Tokenizer13a) {
  EXPECT_EQ(synmt::eval::tokenize_13a("Hello, world! It's 3.5-4."), "Hello , world ! It's 3.5 - 4 ."  /* 13a does not split apostrophes */);
  EXPECT_EQ(synmt::eval::tokenize_13a("a &amp; b &quot;c&quot;"), "a & b \" c \"");
}

TEST(Bleu, HandComputedCases) {
  Bleu bleu{BleuOptions{}};
  EXPECT_NEAR(bleu.corpus_score({"the cat sat on the mat"}, {{"the cat sat on the mat"}}).score, 100.0, 1e-9);
  // unigrams 3/4, bigrams 2/3, trigrams 1/2, 4-grams 0/1 -> exp smoothing gives 100/(2*1) = 50
  auto r = bleu.corpus_score({"a b c d"}, {{"a b c e"}});
  EXPECT_NEAR(r.score, std::pow(75.0 * (200.0 / 3.0) * 50.0 * 50.0, 0.25), 1e-9);
  EXPECT_EQ(r.stats.correct[0], 3);
  EXPECT_EQ(r.stats.total[3], 1);
  // brevity penalty: 2 words against 4
  auto short_hyp = bleu.corpus_score({"a b"}, {{"a b c d"}});
  EXPECT_NEAR(short_hyp.bp, std::exp(1.0 - 4.0 / 2.0), 1e-12);
  // no match at all -> 0
  EXPECT_EQ(bleu.corpus_score({"x y z w"}, {{"a b c d"}}).score, 0.0);
}

TEST(Bleu, ClosestReferenceLengthPrefersShorterOnTies) {
  Bleu bleu{BleuOptions{}};
  auto s = bleu.segment_stats("a b c", {"a b", "a b c d"});
  EXPECT_EQ(s.ref_len, 2);
}

TEST(Bleu, SignatureFollowsSacrebleu2Format) {
  Bleu bleu{BleuOptions{}};
  EXPECT_EQ(bleu.signature(1).rfind("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:", 0), 0u);
}
