#include <gtest/gtest.h>

#include "tests/test_util.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/error.h"
#include "preprocess/bpe.h"

using synmt::test::write_tmp;

// Hand derivation: words ab x2, abc x1 -> symbols (a, b</w>) x2, (a, b, c</w>) x1.
// pairs: (a,b</w>)=2, (a,b)=1, (b,c</w>)=1. Merge 1: "a b</w>". Then (a,b)=1 and (b,c</w>)=1 tie and
// subword-nmt takes the larger pair tuple: ("b","c</w>") > ("a","b"). Merge 3: "a bc</w>".
TEST(Bpe, LearnsHandDerivedMergesWithTupleTieBreaking) {
  synmt::WordCounts counts;
  counts.add_line("ab ab abc");
  synmt::BpeLearnOptions o;
  o.num_symbols = 10;
  o.min_frequency = 1;
  auto merges = synmt::learn_bpe(counts, o);
  ASSERT_EQ(merges.size(), 3u);
  EXPECT_EQ(merges[0], (std::pair<std::string, std::string>{"a", "b</w>"}));
  EXPECT_EQ(merges[1], (std::pair<std::string, std::string>{"b", "c</w>"}));
  EXPECT_EQ(merges[2], (std::pair<std::string, std::string>{"a", "bc</w>"}));
}

TEST(Bpe, MinFrequencyStopsLearning) {
  synmt::WordCounts counts;
  counts.add_line("ab ab abc");
  synmt::BpeLearnOptions o;
  o.num_symbols = 10;
  o.min_frequency = 2;
  EXPECT_EQ(synmt::learn_bpe(counts, o).size(), 1u);
}

TEST(Bpe, AppliesCodesWithSeparatorAndKeepsWhitespace) {
  auto codes = write_tmp("codes", "#version: 0.2\na b</w>\nb c</w>\na bc</w>\n");
  synmt::BpeCodes bpe(codes);
  EXPECT_EQ(bpe.apply_line("ab abc abd"), "ab abc a@@ b@@ d");
  EXPECT_EQ(bpe.apply_line("  ab  abd "), "  ab a@@ b@@ d ");
  EXPECT_EQ(bpe.apply_line("x"), "x");
}

TEST(Bpe, LineScanningAgreesWithWordByWordSegmentationForEveryWordLength) {
  // apply_line scans words 8 bytes at a time (a line's last bytes by overlapping shorter loads) and
  // looks them up in its caches; segment_word takes one word as it is: the same pieces for words
  // of every length around the 8-byte steps, at a line's start, middle and end, and twice (cached)
  auto codes = write_tmp("codes_lengths", "#version: 0.2\na b\nab c\nabc d\nd e</w>\n");
  synmt::BpeCodes bpe(codes);
  auto joined = [&](const std::string& word) {
    std::string out;
    for (const auto& piece : bpe.segment_word(word)) out += (out.empty() ? "" : "@@ ") + piece;
    return out;
  };
  const std::string alphabet = "abcdeabcdeabcdeabcde";
  for (std::size_t n = 1; n <= 20; ++n) {
    const std::string w = alphabet.substr(0, n), v = "de" + alphabet.substr(0, n);
    for (const std::string& line : {w, w + " x", "x " + w, "x " + w + " " + v, w + "  " + v + " "}) {
      std::string expected, word;
      std::istringstream words(line);
      while (words >> word) expected += (expected.empty() ? "" : " ") + joined(word);
      if (line.back() == ' ') expected += ' ';
      for (int pass = 0; pass < 2; ++pass) EXPECT_EQ(bpe.apply_line(line), expected) << "'" << line << "' pass " << pass;
    }
  }
}

TEST(Bpe, BadCodesFilesNameTheLine) {
  EXPECT_THROW(synmt::BpeCodes(write_tmp("empty_codes", "")), synmt::InputError);
  EXPECT_THROW(synmt::BpeCodes(write_tmp("header_only", "#version: 0.2\n")), synmt::InputError);
  try {
    synmt::BpeCodes(write_tmp("bad_codes", "#version: 0.2\na b\nthree units here\n"));
    FAIL() << "malformed codes accepted";
  } catch (const synmt::InputError& e) {
    EXPECT_EQ(e.line(), 3u);
  }
}

// apply-bpe --vocabulary's counts are read whole, as subword-nmt's int(freq): "12abc" is refused
// with its line (it was read as 12).
TEST(Bpe, BadVocabularyCountsNameTheLine) {
  const std::string codes = write_tmp("vocab_codes", "#version: 0.2\na b\n");
  synmt::BpeApplyOptions o;
  o.vocabulary = write_tmp("good_vocab", "ab 3\nc 1\n");
  EXPECT_NO_THROW(synmt::BpeCodes(codes, o));
  for (const char* bad : {"ab 3\nc 1x\n", "ab 3\nc 1.0\n", "ab 3\nc \n"}) {
    o.vocabulary = write_tmp("bad_vocab", bad);
    try {
      synmt::BpeCodes(codes, o);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const synmt::InputError& e) {
      EXPECT_EQ(e.line(), 2u) << e.what();
    }
  }
}

TEST(Bpe, DropoutProperties) {
  auto codes = write_tmp("codes_dropout", "#version: 0.2\na b</w>\nb c</w>\na bc</w>\nx y\n");
  synmt::BpeApplyOptions none, all, half;
  all.dropout = 1.0;   // every merge dropped: characters
  half.dropout = 0.5;
  synmt::BpeCodes plain(codes, none), chars(codes, all), noisy(codes, half);
  EXPECT_EQ(plain.apply_line("abc ab"), "abc ab");
  EXPECT_EQ(chars.apply_line("abc ab"), "a@@ b@@ c a@@ b");
  // half: every output re-joins to the input, and over many draws both extremes occur
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    std::string out = noisy.apply_line("abc");
    std::string joined;
    for (std::size_t p = 0; p < out.size(); ++p) {
      if (out.compare(p, 3, "@@ ") == 0) {
        p += 2;
        continue;
      }
      joined.push_back(out[p]);
    }
    EXPECT_EQ(joined, "abc");
    seen.insert(out);
  }
  EXPECT_TRUE(seen.count("abc"));
  EXPECT_TRUE(seen.count("a@@ b@@ c"));
}

TEST(Bpe, RemoveBpeUndoesSegmentation) {
  EXPECT_EQ(synmt::remove_bpe("the black@@ bird@@ s sing@@ s"), "the blackbirds sings");
  EXPECT_EQ(synmt::remove_bpe("a@@"), "a");
  EXPECT_EQ(synmt::remove_bpe("e-@@ mail"), "e-mail");
  EXPECT_EQ(synmt::remove_bpe(""), "");
}
