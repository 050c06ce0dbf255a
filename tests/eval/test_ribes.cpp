#include <gtest/gtest.h>

#include <cmath>

#include "eval/ribes.h"

using synmt::eval::ribes_kendall;
using synmt::eval::ribes_words;

TEST(Ribes, HandComputedSentences) {
  // identical: nkt 1, precision 1, bp 1
  auto k = ribes_kendall(ribes_words("a b c d", false), ribes_words("a b c d", false), false);
  EXPECT_DOUBLE_EQ(k->nkt, 1.0);
  EXPECT_DOUBLE_EQ(k->precision, 1.0);
  // fully reversed: no ascending pair
  k = ribes_kendall(ribes_words("a b c d", false), ribes_words("d c b a", false), false);
  EXPECT_DOUBLE_EQ(k->nkt, 0.0);
  // "a c b" vs ref "a b c": positions [0,2,1] -> 2 of 3 pairs ascending
  k = ribes_kendall(ribes_words("a b c", false), ribes_words("a c b x", false), false);
  EXPECT_DOUBLE_EQ(k->nkt, 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(k->precision, 3.0 / 4.0);
  EXPECT_DOUBLE_EQ(k->bp, 1.0);
  // shorter hypothesis: bp = exp(1 - 4/2)
  k = ribes_kendall(ribes_words("a b c d", false), ribes_words("a b", false), false);
  EXPECT_DOUBLE_EQ(k->bp, std::exp(1.0 - 2.0));
  // A repeated word is placed by the shortest context that is unique in both, the left one first,
  // as RIBES.py: ref "b a z a e", hyp "z b a e". The "a" has both a unique left bigram "b a" (ref
  // position 0 -> a at 1) and a unique right bigram "a e" (-> a at 3); left first gives the
  // alignment [2, 0, 1, 4], 4 ascending pairs of 6 (every pair counts, not only +1 runs as NLTK),
  // where right first would give [2, 0, 3, 4] and 5 / 6. RIBES.py 1.03.1 -d 2 prints nkt=0.666667,
  // precision=1, bp=0.778801 and the score 0.650207 for this pair.
  k = ribes_kendall(ribes_words("b a z a e", false), ribes_words("z b a e", false), false);
  EXPECT_DOUBLE_EQ(k->nkt, 4.0 / 6.0);
  EXPECT_EQ(k->precision, 1.0);
  EXPECT_NEAR(k->bp, std::exp(1.0 - 5.0 / 4.0), 1e-15);
  {
    synmt::eval::Ribes ribes({});
    EXPECT_NEAR(*ribes.sentence_scores({"z b a e"}, {{"b a z a e"}})[0], 0.650207, 5e-7);
  }
  // the older hand case: hyp "x a y a", ref "y a x a" -> [2, 3, 0, 1], 2 ascending pairs of 6
  k = ribes_kendall(ribes_words("y a x a", false), ribes_words("x a y a", false), false);
  EXPECT_EQ(k->precision, 1.0);
  EXPECT_DOUBLE_EQ(k->nkt, 2.0 / 6.0);
  // lower-casing by default, case kept with case_sensitive
  EXPECT_EQ(ribes_words("The  Cat\tSAT", false), (std::vector<std::string>{"the", "cat", "sat"}));
  EXPECT_EQ(ribes_words("The Cat", true), (std::vector<std::string>{"The", "Cat"}));
}

TEST(Ribes, EmptyReferencesAndHypotheses) {
  EXPECT_THROW(ribes_kendall({}, ribes_words("a", false), false), std::invalid_argument);
  EXPECT_FALSE(ribes_kendall({}, ribes_words("a", false), true).has_value());
  auto k = ribes_kendall(ribes_words("a b", false), {}, false);
  EXPECT_EQ(k->nkt, 0.0);
  synmt::eval::RibesOptions o;
  o.allow_empty_reference = true;
  synmt::eval::Ribes r(o);
  // sentence 2 has an empty reference and is left out of the mean
  double s = r.corpus_score({"a b c", "x"}, {{"a b c", ""}});
  EXPECT_DOUBLE_EQ(s, 1.0);
}

// RIBES.py splits on spaces, so an unsegmented Japanese reference is one "word": tokenize
// segments hypothesis and reference first (MeCab + IPAdic here; WAT segments with KyTea).
TEST(Ribes, SegmentsTextWrittenWithoutSpaces) {
  const std::string ref = "猫が魚を食べた";  // MeCab: 猫 が 魚 を 食べ た
  synmt::eval::Ribes as_given({});
  EXPECT_EQ(*as_given.sentence_scores({"猫 が 魚 を 食べ た"}, {{ref}})[0], 0.0);  // nothing aligns
  synmt::eval::RibesOptions o;
  o.tokenize = "ja-mecab";
  synmt::eval::Ribes segmented(o);
  EXPECT_DOUBLE_EQ(*segmented.sentence_scores({"猫 が 魚 を 食べ た"}, {{ref}})[0], 1.0);
  // 魚 を 猫 が 食べ た -> reference positions [2, 3, 0, 1, 4, 5]: 11 ascending pairs of 15
  EXPECT_DOUBLE_EQ(*segmented.sentence_scores({"魚を猫が食べた"}, {{ref}})[0], 11.0 / 15.0);
  EXPECT_NE(segmented.signature(1).find("|tok:ja-mecab|"), std::string::npos);
  EXPECT_EQ(as_given.signature(1).find("tok:"), std::string::npos);
  o.tokenize = "kytea";
  EXPECT_ANY_THROW(synmt::eval::Ribes{o});
}
