// The +C&H multi-task data: dependency bracketing (one label per word, balanced, word order for
// projective trees, the tree readable back), the tagged training mix and its error reports.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>

#include "core/error.h"
#include "core/strings.h"
#include "parse/linearise.h"
#include "tests/test_util.h"

namespace {
std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// Reads a bracketing back into heads (1-based, 0 = root): the bare label of a group is its word.
std::vector<int32_t> read_back(const std::string& bracketing) {
  std::vector<int32_t> heads;
  std::vector<int32_t> group_word;  // per open group: its word once seen, 0 before
  std::vector<std::vector<std::size_t>> pending;  // per open group: child words waiting for the head
  for (const auto& token : synmt::split_nonempty(bracketing, ' ')) {
    if (token == "(") {
      group_word.push_back(0);
      pending.emplace_back();
    } else if (token == ")") {
      const int32_t word = group_word.back();
      for (auto child : pending.back()) heads[child] = word;
      group_word.pop_back();
      pending.pop_back();
      if (!pending.empty()) pending.back().push_back(static_cast<std::size_t>(word - 1));
      else heads[static_cast<std::size_t>(word - 1)] = 0;
    } else {
      heads.push_back(-1);
      group_word.back() = static_cast<int32_t>(heads.size());
    }
  }
  return heads;
}
// A bracketing's shape: the groups it opens, whether every ")" closes an open group and all of them
// close, and its labels in order.
struct Shape {
  int opened = 0;
  bool balanced = true;
  std::vector<std::string> labels;
};
Shape shape_of(const std::string& bracketing) {
  Shape shape;
  int depth = 0;
  for (const auto& t : synmt::split_nonempty(bracketing, ' ')) {
    if (t == "(") ++depth, ++shape.opened;
    else if (t == ")") shape.balanced = shape.balanced && --depth >= 0;
    else shape.labels.push_back(t);
  }
  shape.balanced = shape.balanced && depth == 0;
  return shape;
}
}  // namespace

TEST(Linearise, WorkedExampleFromTheDocs) {
  // the <-det- dog <-nsubj- barks (root)
  EXPECT_EQ(synmt::parse::linearise_dependencies({2, 3, 0}, {"det", "nsubj", "root"}), "( ( ( det ) nsubj ) root )");
  // She saw the cat .  (saw root; She nsubj; cat obj <- the det; . punct)
  EXPECT_EQ(synmt::parse::linearise_dependencies({2, 0, 4, 2, 2}, {"nsubj", "root", "det", "obj", "punct"}),
            "( ( nsubj ) root ( ( det ) obj ) ( punct ) )");
}

// Random projective trees: one label per word in word order, balanced brackets, the tree read back.
TEST(Linearise, ProjectiveTreesRoundTrip) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 12);
    // a random projective tree: recursively pick a head in a span, attach sub-spans to it
    std::vector<int32_t> heads(static_cast<std::size_t>(n));
    std::function<void(int, int, int)> build = [&](int lo, int hi, int parent) {
      if (lo > hi) return;
      const int h = lo + static_cast<int>(rng() % static_cast<unsigned>(hi - lo + 1));
      heads[static_cast<std::size_t>(h)] = parent;
      build(lo, h - 1, h + 1);
      build(h + 1, hi, h + 1);
    };
    build(0, n - 1, 0);
    std::vector<std::string> labels;
    for (int i = 0; i < n; ++i) labels.push_back("l" + std::to_string(i));
    const auto s = synmt::parse::linearise_dependencies(heads, labels);
    const auto shape = shape_of(s);
    EXPECT_TRUE(shape.balanced) << s;
    EXPECT_EQ(shape.opened, n) << s;
    EXPECT_EQ(shape.labels, labels) << s;
    EXPECT_EQ(read_back(s), heads) << s;
  }
}

// A non-projective tree (a crossing arc: word 1 -> word 3 crosses word 2 -> word 4, root word 2):
// still one label per word, balanced, as many groups as words; the labels of the crossing arc's
// subtree come out of sentence order.
TEST(Linearise, NonProjectiveTreeStaysBalancedWithOneLabelPerWord) {
  const std::vector<int32_t> heads = {3, 0, 2, 2};  // 1 <- 3, 3 <- 2, 4 <- 2: arcs (1,3) and (2,4) cross
  const std::vector<std::string> labels = {"a", "root", "c", "d"};
  const auto s = synmt::parse::linearise_dependencies(heads, labels);
  const auto shape = shape_of(s);
  EXPECT_TRUE(shape.balanced) << s;
  EXPECT_EQ(shape.opened, 4) << s;
  std::vector<std::string> sorted = shape.labels;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<std::string>{"a", "c", "d", "root"})) << s;  // each label once
  EXPECT_NE(shape.labels, labels) << s;                                        // not in sentence order
}

TEST(Linearise, RefusesBrokenTrees) {
  EXPECT_THROW(synmt::parse::linearise_dependencies({2, 1}, {"a", "b"}), synmt::ConfigError);     // a cycle, no root
  EXPECT_THROW(synmt::parse::linearise_dependencies({0, 3}, {"a", "b"}), synmt::ConfigError);     // head out of range
  EXPECT_THROW(synmt::parse::linearise_dependencies({1}, {"a"}), synmt::ConfigError);             // its own head
  EXPECT_THROW(synmt::parse::linearise_dependencies({0, 1}, {"a"}), synmt::ConfigError);          // labels missing
}

// The training mix has twice the pairs, the first half <TR> (target unchanged), the second <PA>
// with balanced brackets and one label per source word; a parse of another corpus is refused
// naming the file and line.
TEST(Linearise, MultitaskMixAndTagging) {
  synmt::parse::ParsedCorpus parses;
  parses.add({2, 0}, {"nsubj", "root"}, {"PRON", "VERB"});
  parses.add({2, 3, 0}, {"det", "nsubj", "root"}, {"DET", "NOUN", "VERB"});
  const auto cache = synmt::test::tmp_path("parse.h5");
  synmt::parse::write_parse_cache(cache, parses);
  const auto src = synmt::test::write_tmp("train.src", "I run\nthe dog barks\n");
  const auto tgt = synmt::test::write_tmp("train.tgt", "ich laufe\nder Hund bellt\n");
  const auto out_src = synmt::test::tmp_path("mix.src"), out_tgt = synmt::test::tmp_path("mix.tgt");
  auto counts = synmt::parse::write_parse_multitask(src, tgt, cache, out_src, out_tgt);
  EXPECT_EQ(counts.pairs, 2u);
  EXPECT_EQ(counts.written, 4u);
  EXPECT_EQ(lines_of(out_src), (std::vector<std::string>{"<TR> I run <TR>", "<TR> the dog barks <TR>", "<PA> I run <PA>",
                                                         "<PA> the dog barks <PA>"}));
  EXPECT_EQ(lines_of(out_tgt), (std::vector<std::string>{"ich laufe", "der Hund bellt", "( ( nsubj ) root )", "( ( ( det ) nsubj ) root )"}));

  const auto tagged = synmt::test::tmp_path("valid.src");
  EXPECT_EQ(synmt::parse::write_translation_tagged(src, tagged), 2u);
  EXPECT_EQ(lines_of(tagged), (std::vector<std::string>{"<TR> I run <TR>", "<TR> the dog barks <TR>"}));

  const auto wrong = synmt::test::write_tmp("other.src", "I run\nthe dog barks loudly\n");
  try {
    synmt::parse::write_parse_multitask(wrong, tgt, cache, out_src, out_tgt);
    FAIL() << "a parse of another corpus was accepted";
  } catch (const synmt::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("other.src"), std::string::npos) << e.what();
    EXPECT_EQ(e.line(), 2u);
  }
  const auto short_tgt = synmt::test::write_tmp("short.tgt", "ich laufe\n");
  EXPECT_THROW(synmt::parse::write_parse_multitask(src, short_tgt, cache, out_src, out_tgt), synmt::InputError);
}

// A parse whose heads do not form a tree (sentence 2: words 2 and 3 head each other, no root) is
// an error naming the parse file and the sentence, not a shortened or unbalanced bracketing.
TEST(Linearise, MultitaskNamesTheParseFileAndSentenceOfABrokenTree) {
  synmt::parse::ParsedCorpus parses;
  parses.add({2, 0}, {"nsubj", "root"}, {"PRON", "VERB"});
  parses.add({2, 3, 2}, {"det", "nsubj", "root"}, {"DET", "NOUN", "VERB"});
  const auto cache = synmt::test::tmp_path("cyclic_parse.h5");
  synmt::parse::write_parse_cache(cache, parses);
  const auto src = synmt::test::write_tmp("cyclic.src", "I run\nthe dog barks\n");
  const auto tgt = synmt::test::write_tmp("cyclic.tgt", "ich laufe\nder Hund bellt\n");
  const auto out_src = synmt::test::tmp_path("cyclic_mix.src"), out_tgt = synmt::test::tmp_path("cyclic_mix.tgt");
  try {
    synmt::parse::write_parse_multitask(src, tgt, cache, out_src, out_tgt);
    FAIL() << "a parse with a cycle was linearised";
  } catch (const synmt::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cyclic_parse.h5"), std::string::npos) << e.what();
    EXPECT_EQ(e.line(), 2u) << e.what();
  }
}
