#include <gtest/gtest.h>

#include "parse/subword_mapping.h"

using synmt::parse::map_tree_to_subwords;
using synmt::parse::word_spans_from_bpe;

// Hand-worked: "the black@@ bird@@ s sing@@ s" = words the(0) blackbirds(1..3) sings(4..5)
// tree: the <- blackbirds <- sings (root)
TEST(SubwordMapping, WordsOfOneTwoAndThreeSubwordsAndTheRoot) {
  auto spans = word_spans_from_bpe({"the", "black@@", "bird@@", "s", "sing@@", "s"});
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_EQ(spans[1].first, 1);
  EXPECT_EQ(spans[1].last, 3);
  auto t = map_tree_to_subwords(spans, {2, 3, 0}, {7, 8, 9});
  // "the" -> parent blackbirds at positions 1,2,3: middle 2.0
  EXPECT_FLOAT_EQ(t.parent_middle[0], 2.0f);
  // every sub-word of "blackbirds" -> parent "sings" at 4,5: middle 4.5
  for (int k : {1, 2, 3}) EXPECT_FLOAT_EQ(t.parent_middle[static_cast<std::size_t>(k)], 4.5f);
  // the root "sings" points to itself: middle of 4,5
  EXPECT_FLOAT_EQ(t.parent_middle[4], 4.5f);
  EXPECT_FLOAT_EQ(t.parent_middle[5], 4.5f);
  // SISA: first sub-word of the parent word (root: its own first sub-word)
  EXPECT_EQ(t.parent_first, (std::vector<int32_t>{1, 4, 4, 4, 4, 4}));
  // S&H: every sub-word carries its word's label
  EXPECT_EQ(t.label, (std::vector<int32_t>{7, 8, 8, 8, 9, 9}));
  EXPECT_EQ(t.word, (std::vector<int32_t>{0, 1, 1, 1, 2, 2}));
}

TEST(SubwordMapping, SingleWordRootAndMismatchedWordCounts) {
  auto t = map_tree_to_subwords(word_spans_from_bpe({"hello"}), {0}, {1});
  EXPECT_FLOAT_EQ(t.parent_middle[0], 0.0f);
  EXPECT_EQ(t.parent_first[0], 0);
  EXPECT_THROW(map_tree_to_subwords(word_spans_from_bpe({"a", "b@@", "c"}), {0, 1, 1}, {0, 0, 0}), std::invalid_argument);
  EXPECT_THROW(map_tree_to_subwords(word_spans_from_bpe({"a", "b"}), {0, 5}, {0, 0}), std::invalid_argument);
}

TEST(SubwordMapping, SentencePieceWordStarts) {
  const std::string m = "\xE2\x96\x81";
  auto spans = synmt::parse::word_spans_from_spm({m + "The", m + "black", "bird", "s", m + "sing"});
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_EQ(spans[1].first, 1);
  EXPECT_EQ(spans[1].last, 3);
  auto t = map_tree_to_subwords(spans, {2, 0, 2}, {0, 0, 0});
  EXPECT_FLOAT_EQ(t.parent_middle[0], 2.0f);
  EXPECT_FLOAT_EQ(t.parent_middle[4], 2.0f);
}

// Word-level text (subwords: none): every token is its own word, even one that looks like BPE.
TEST(SubwordMapping, WordLevelTextHasTrivialSpans) {
  using synmt::parse::SubwordMarks;
  auto spans = synmt::parse::word_spans({"the", "black@@", "birds"}, SubwordMarks::none);
  ASSERT_EQ(spans.size(), 3u);
  for (int32_t w = 0; w < 3; ++w) {
    EXPECT_EQ(spans[static_cast<std::size_t>(w)].first, w);
    EXPECT_EQ(spans[static_cast<std::size_t>(w)].last, w);
  }
  auto t = map_tree_to_subwords(spans, {2, 3, 0}, {1, 2, 3});
  EXPECT_EQ(t.parent_first, (std::vector<int32_t>{1, 2, 2}));
  EXPECT_EQ(t.parent_middle, (std::vector<float>{1.0f, 2.0f, 2.0f}));
  EXPECT_EQ(synmt::parse::subword_marks_from_name("none"), SubwordMarks::none);
  EXPECT_THROW(synmt::parse::subword_marks_from_name("chars"), std::invalid_argument);
}
