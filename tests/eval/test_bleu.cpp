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

#include "core/line_reader.h"

// The prepared-reference path (packed segment-local n-gram keys, hashed clipping) must give the
// same statistics as the direct string-keyed counting, segment by segment, on real outputs.
TEST(Bleu, PreparedReferencesMatchDirectCountingOnRealData) {
  const std::string w = std::string(SYNMT_MIRROR) + "/eval/wmt22/generaltest2022.de-en.";
  auto hyps = synmt::read_lines(w + "hyp.LT22.en.gz");
  auto ref_a = synmt::read_lines(w + "ref.A.en.gz");
  auto ref_b = synmt::read_lines(w + "ref.B.en.gz");
  for (const char* tok : {"13a", "intl", "char"}) {
    BleuOptions o;
    o.tokenize = tok;
    Bleu bleu(o);
    auto prepared = bleu.prepare_references({ref_a, ref_b});
    ASSERT_EQ(prepared.size(), hyps.size());
    for (std::size_t i = 0; i < hyps.size(); i += 7) {
      auto fast = bleu.segment_stats(hyps[i], prepared[i]);
      auto direct = bleu.segment_stats(hyps[i], std::vector<std::string>{ref_a[i], ref_b[i]});
      ASSERT_EQ(fast.sys_len, direct.sys_len) << tok << " segment " << i;
      ASSERT_EQ(fast.ref_len, direct.ref_len) << tok << " segment " << i;
      ASSERT_EQ(fast.correct, direct.correct) << tok << " segment " << i;
      ASSERT_EQ(fast.total, direct.total) << tok << " segment " << i;
    }
  }
}
