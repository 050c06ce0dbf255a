#include <gtest/gtest.h>

#include "tests/test_util.h"

#include <string>

#include "core/error.h"
#include "eval/score_matrix_text.h"
#include "eval/trees.h"

namespace {
// The InputError's line for reading `text` with `read`; 0 if it was accepted (a failure then).
template <typename Read>
std::size_t refused_at(const std::string& name, const std::string& text, Read read) {
  const std::string path = synmt::test::write_tmp(name, text);
  try {
    read(path);
  } catch (const synmt::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    return e.line() == 0 ? static_cast<std::size_t>(-1) : e.line();
  }
  ADD_FAILURE() << name << " was accepted";
  return 0;
}
}  // namespace

TEST(ScoreMatrixText, ReadsSentencesSeparatedByBlankLines) {
  const auto m = synmt::eval::read_score_matrices(synmt::test::write_tmp("two.scores", "0 1 2\n0 0 -1.5e1\n0 3 0\n\n  \n0 4\n0 0\n"));
  ASSERT_EQ(m.size(), 2u);
  ASSERT_EQ(m[0].size(), 3u);
  EXPECT_DOUBLE_EQ(m[0][1][2], -15.0);
  EXPECT_DOUBLE_EQ(m[0][2][1], 3.0);
  ASSERT_EQ(m[1].size(), 2u);
  EXPECT_DOUBLE_EQ(m[1][0][1], 4.0);
}

TEST(ScoreMatrixText, BadMatricesNameTheirLine) {
  auto read = [](const std::string& p) { synmt::eval::read_score_matrices(p); };
  EXPECT_EQ(refused_at("nan.scores", "0 1\n0 0\n\n0 1 2\n0 0 nan\n0 3 0\n", read), 5u);
  EXPECT_EQ(refused_at("inf.scores", "0 inf\n0 0\n", read), 1u);
  EXPECT_EQ(refused_at("word.scores", "0 1\n0 x\n", read), 2u);
  EXPECT_EQ(refused_at("tail.scores", "0 1\n0 2abc\n", read), 2u);
  // the shape error names the line the matrix starts on
  EXPECT_EQ(refused_at("ragged.scores", "0 1\n0 0\n\n0 1 2\n0 0 1\n", read), 4u);
  EXPECT_EQ(refused_at("wide.scores", "0 1 2\n0 0 1\n0 0 1\n0 0 1\n", read), 1u);
  EXPECT_EQ(refused_at("empty.scores", "\n\n", read), static_cast<std::size_t>(-1));  // no line: the whole file
}

TEST(ScoreMatrixText, HeadLinesAreStrictIntegers) {
  const auto h = synmt::eval::read_head_lines(synmt::test::write_tmp("ok.heads", "2 0\n\n0 1 1\n"));
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[0], (std::vector<int>{2, 0}));
  EXPECT_TRUE(h[1].empty());
  EXPECT_EQ(h[2], (std::vector<int>{0, 1, 1}));
  auto read = [](const std::string& p) { synmt::eval::read_head_lines(p); };
  // "2.5" once read as 2 by `>>` with the rest dropped: now refused with its line
  EXPECT_EQ(refused_at("fraction.heads", "2 0\n0 2.5\n", read), 2u);
  EXPECT_EQ(refused_at("negative.heads", "-1 0\n", read), 1u);
  EXPECT_EQ(refused_at("word.heads", "0\n1 x\n", read), 2u);
}

TEST(TreeDecoders, ByNameAsTheConfigurationsSayThem) {
  // each word's best head is the other word (greedy: a cycle); the best tree is root -> 2 -> 1
  const synmt::eval::ScoreMatrix s = {{0, 1, 3}, {0, 0, 7}, {0, 6, 0}};
  EXPECT_EQ(synmt::eval::decode_tree(s, "cle"), synmt::eval::chu_liu_edmonds(s, true));
  EXPECT_EQ(synmt::eval::decode_tree(s, "eisner"), synmt::eval::eisner(s));
  EXPECT_EQ(synmt::eval::decode_tree(s, "greedy"), synmt::eval::greedy_heads(s));
  EXPECT_EQ(synmt::eval::decode_tree(s, "cle"), (synmt::eval::Heads{-1, 2, 0}));
  EXPECT_EQ(synmt::eval::decode_tree(s, "greedy"), (synmt::eval::Heads{-1, 2, 1}));
  EXPECT_THROW(synmt::eval::decode_tree(s, "CLE"), synmt::ConfigError);
}
