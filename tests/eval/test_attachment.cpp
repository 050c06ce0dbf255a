#include <gtest/gtest.h>

#include "tests/test_util.h"

#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "eval/attachment.h"
#include "eval/conllu.h"

namespace {
const std::string kGold = std::string(SYNMT_MIRROR) + "/ud/UD_English-PUD/en_pud-ud-test.conllu.gz";

std::string tmp(const std::string& name) { return synmt::test::tmp_path(name); }
}  // namespace

TEST(Attachment, GoldAgainstItselfIsPerfect) {
  auto gold = synmt::eval::read_conllu(kGold);
  ASSERT_EQ(gold.size(), 1000u);
  auto s = synmt::eval::attachment_scores(gold, gold);
  EXPECT_DOUBLE_EQ(s.uas, 100.0);
  EXPECT_DOUBLE_EQ(s.las, 100.0);
  EXPECT_DOUBLE_EQ(s.da, 100.0);
  EXPECT_TRUE(s.same_tokenisation);
}

TEST(Attachment, HandCheckedPerturbationsOfRealTrees) {
  auto gold = synmt::eval::read_conllu(kGold);
  auto sys = gold;
  // 1) change the label of the first word of sentence 1: UAS stays, LAS loses exactly one word
  sys[0].words[0].deprel = gold[0].words[0].deprel == "nsubj" ? "obj" : "nsubj";
  // 2) reverse one non-root, non-punct arc in sentence 2 (d <- h becomes h <- d keeps a tree only
  //    if we move h's head to d; count: two words change heads)
  auto& s2 = sys[1].words;
  const auto& g2 = gold[1].words;
  int d = -1;
  for (std::size_t k = 0; k < g2.size(); ++k)
    if (g2[k].head > 0 && g2[k].upos != "PUNCT" && g2[g2[k].head - 1].upos != "PUNCT" && g2[g2[k].head - 1].head != 0) {
      d = static_cast<int>(k) + 1;
      break;
    }
  ASSERT_GT(d, 0);
  int h = g2[d - 1].head;
  s2[d - 1].head = g2[h - 1].head;  // d takes h's head
  s2[h - 1].head = d;               // h now hangs from d: the arc d-h reversed
  long total = 0, nonpunct = 0;
  for (const auto& s : gold)
    for (const auto& w : s.words) total++, nonpunct += w.upos != "PUNCT";
  auto r = synmt::eval::attachment_scores(gold, sys);
  EXPECT_NEAR(r.uas, 100.0 * (total - 2) / total, 1e-9);
  // LAS: the two re-attached words are wrong, plus the relabelled word of sentence 1
  EXPECT_NEAR(r.las, 100.0 * (total - 3) / total, 1e-9);
  EXPECT_NEAR(r.da, 100.0 * (nonpunct - 2) / nonpunct, 1e-9);
  // undirected: the reversed arc counts; d's new arc to h's old head is not a gold arc
  EXPECT_NEAR(r.ua, 100.0 * (nonpunct - 1) / nonpunct, 1e-9);
}

TEST(Attachment, DifferentTokenisationUsesAlignedF1) {
  // gold: "New York is big" as 4 words; system merges "NewYork" into one word
  std::ofstream(tmp("g.conllu")) << "1\tNew\t_\tPROPN\t_\t_\t2\tcompound\t_\t_\n2\tYork\t_\tPROPN\t_\t_\t4\tnsubj\t_\t_\n"
                                    "3\tis\t_\tAUX\t_\t_\t4\tcop\t_\t_\n4\tbig\t_\tADJ\t_\t_\t0\troot\t_\t_\n\n";
  std::ofstream(tmp("s.conllu")) << "1\tNewYork\t_\tPROPN\t_\t_\t3\tnsubj\t_\t_\n2\tis\t_\tAUX\t_\t_\t3\tcop\t_\t_\n"
                                    "3\tbig\t_\tADJ\t_\t_\t0\troot\t_\t_\n\n";
  auto r = synmt::eval::attachment_scores(synmt::eval::read_conllu(tmp("g.conllu")), synmt::eval::read_conllu(tmp("s.conllu")));
  EXPECT_FALSE(r.same_tokenisation);
  // aligned: is, big (both correct); precision 2/3, recall 2/4 -> F1 = 4/7
  EXPECT_NEAR(r.uas, 100.0 * 4.0 / 7.0, 1e-9);
}

TEST(Conllu, MalformedInputNamesTheLine) {
  std::ofstream(tmp("bad_cols.conllu")) << "# text = a\n1\ta\t_\tX\t_\t_\t0\troot\t_\n\n";
  try {
    synmt::eval::read_conllu(tmp("bad_cols.conllu"));
    FAIL();
  } catch (const synmt::InputError& e) {
    EXPECT_EQ(e.line(), 2u);
  }
  std::ofstream(tmp("cycle.conllu")) << "1\ta\t_\tX\t_\t_\t2\tdep\t_\t_\n2\tb\t_\tX\t_\t_\t1\tdep\t_\t_\n3\tc\t_\tX\t_\t_\t0\troot\t_\t_\n\n";
  std::ofstream(tmp("range.conllu")) << "1\ta\t_\tX\t_\t_\t7\tdep\t_\t_\n2\tb\t_\tX\t_\t_\t0\troot\t_\t_\n\n";
  for (const char* name : {"cycle.conllu", "range.conllu"}) {  // each refusal names its file and a line
    try {
      synmt::eval::read_conllu(tmp(name));
      ADD_FAILURE() << name << " accepted";
    } catch (const synmt::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
      EXPECT_GE(e.line(), 1u) << e.what();
    }
  }
}

// The per-sentence rows a paired test resamples sum to the corpus DA/UA, on real trees with real
// damage (a random tree for every third sentence), and trees on another tokenisation are refused.
TEST(Attachment, SentenceRowsSumToTheCorpusScores) {
  auto gold = synmt::eval::read_conllu(kGold);
  auto sys = gold;
  for (std::size_t i = 0; i < sys.size(); i += 3)  // left-branching for a third of the sentences
    for (std::size_t k = 0; k < sys[i].words.size(); ++k) sys[i].words[k].head = k + 1 < sys[i].words.size() ? static_cast<int>(k) + 2 : 0;
  for (bool punct : {false, true}) {
    const auto rows = synmt::eval::attachment_rows(gold, sys, "sys.conllu", punct);
    ASSERT_EQ(rows.size(), gold.size());
    std::vector<double> summed(3, 0.0);
    for (const auto& r : rows)
      for (std::size_t j = 0; j < 3; ++j) summed[j] += r[j];
    const auto corpus = synmt::eval::attachment_scores(gold, sys, punct);
    EXPECT_LT(corpus.da, 95.0);  // the damage shows
    EXPECT_NEAR(synmt::eval::attachment_from_rows(summed, true), corpus.da, 1e-9) << punct;
    EXPECT_NEAR(synmt::eval::attachment_from_rows(summed, false), corpus.ua, 1e-9) << punct;
  }
  auto other = gold;
  other[7].words[2].form += "x";
  try {
    synmt::eval::attachment_rows(gold, other, "other.conllu");
    ADD_FAILURE() << "accepted other words";
  } catch (const synmt::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("other.conllu"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("sentence 8 has other words"), std::string::npos) << e.what();
  }
  other.pop_back();
  EXPECT_THROW(synmt::eval::attachment_rows(gold, other, "short.conllu"), synmt::InputError);
}
