#include <gtest/gtest.h>

#include <zlib.h>

#include <filesystem>
#include <sstream>

#include "core/error.h"
#include "eval/conllu.h"
#include "parse/conllu.h"
#include "tests/test_util.h"

namespace {
std::string gunzip(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  std::string out;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  gzclose(f);
  return out;
}

// the error message of reading `text`, or "" when it reads
std::string read_error(const std::string& name, const std::string& text) {
  try {
    synmt::parse::read_conllu(synmt::test::write_tmp(name, text));
  } catch (const synmt::InputError& e) {
    return e.what();
  }
  return "";
}

const char* kGood =
    "# sent_id = s1\n# text = Don't go.\n"
    "1-2\tDon't\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "1\tDo\tdo\tAUX\t_\t_\t3\taux\t_\t_\n"
    "2\tn't\tnot\tPART\t_\t_\t3\tadvmod\t_\t_\n"
    "3\tgo\tgo\tVERB\t_\t_\t0\troot\t_\t_\n"
    "3.1\tgone\tgo\tVERB\t_\t_\t_\t_\t3:conj\t_\n"
    "4\t.\t.\tPUNCT\t_\t_\t3\tpunct\t_\tSpaceAfter=No\n\n";
}  // namespace

// Every UD file of the shared data reads and writes back byte for byte.
TEST(ConlluDocument, RoundTripOfEveryUdFileIsByteExact) {
  const std::string root = std::string(SYNMT_MIRROR) + "/ud";
  if (!std::filesystem::exists(root)) GTEST_SKIP() << "no " << root;
  int files = 0;
  for (const auto& dir : std::filesystem::directory_iterator(root))
    for (const auto& f : std::filesystem::directory_iterator(dir.path())) {
      if (f.path().string().find(".conllu") == std::string::npos) continue;
      auto sentences = synmt::parse::read_conllu(f.path().string());
      std::ostringstream out;
      synmt::parse::write_conllu(out, sentences);
      EXPECT_TRUE(out.str() == gunzip(f.path().string())) << f.path();
      ++files;
    }
  EXPECT_GE(files, 15);
}

TEST(ConlluDocument, ReadsMultiwordTokensEmptyNodesAndMetadata) {
  auto s = synmt::parse::read_conllu(synmt::test::write_tmp("good.conllu", kGood));
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].metadata().at("sent_id"), "s1");
  EXPECT_EQ(s[0].metadata().at("text"), "Don't go.");
  EXPECT_EQ(s[0].words().size(), 4u);
  EXPECT_EQ(s[0].heads(), (std::vector<int>{3, 3, 0, 3}));
  EXPECT_EQ(s[0].tokens(), (std::vector<std::string>{"Don't", "go", "."}));
  EXPECT_EQ(s[0].rows[4].kind, synmt::parse::ConlluRow::Kind::EmptyNode);
}

TEST(ConlluDocument, MalformedInputNamesTheLine) {
  const std::string word3 = "3\tgo\tgo\tVERB\t_\t_\t0\troot\t_\t_\n";
  EXPECT_NE(read_error("cols.conllu", "1\ta\t_\t_\t_\t_\t0\troot\t_\n\n").find(":1: expected 10 tab-separated columns, found 9"), std::string::npos);
  EXPECT_NE(read_error("head.conllu", "1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n2\tb\t_\t_\t_\t_\tx\tdep\t_\t_\n\n").find(":2: head 'x' is not"), std::string::npos);
  EXPECT_NE(read_error("range.conllu", "1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n2\tb\t_\t_\t_\t_\t7\tdep\t_\t_\n\n").find(":2: head 7 is out of range"), std::string::npos);
  EXPECT_NE(read_error("cycle.conllu", "1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n2\tb\t_\t_\t_\t_\t3\tdep\t_\t_\n3\tc\t_\t_\t_\t_\t2\tdep\t_\t_\n\n").find(":2: the heads form a cycle"), std::string::npos);
  EXPECT_NE(read_error("noroot.conllu", "# c\n1\ta\t_\t_\t_\t_\t2\tdep\t_\t_\n2\tb\t_\t_\t_\t_\t1\tdep\t_\t_\n\n").find(":1: sentence has no root"), std::string::npos);
  EXPECT_NE(read_error("tworoots.conllu", "1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n2\tb\t_\t_\t_\t_\t0\troot\t_\t_\n\n").find(":2: sentence has 2 roots"), std::string::npos);
  EXPECT_NE(read_error("seq.conllu", "1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n3\tb\t_\t_\t_\t_\t1\tdep\t_\t_\n\n").find(":2: word id 3 out of sequence"), std::string::npos);
  EXPECT_NE(read_error("unterminated.conllu", "1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n").find("not terminated by a blank line"), std::string::npos);
  EXPECT_NE(read_error("blank.conllu", std::string(kGood) + "\n").find(":10: blank line outside a sentence"), std::string::npos);
  EXPECT_NE(read_error("self.conllu", "1\ta\t_\t_\t_\t_\t1\troot\t_\t_\n\n").find("its own head"), std::string::npos);
  EXPECT_EQ(read_error("ok.conllu", kGood), "");
}

// Fuzzing finding (tests/fuzz): ids and heads beyond int made std::stoi throw a bare
// std::out_of_range from both CoNLL-U readers instead of an InputError naming the line.
TEST(Conllu, HugeIdsAndHeadsAreClearErrors) {
  const std::string huge_head = "1\tgo\tgo\tVERB\t_\t_\t99999999999\troot\t_\t_\n\n";
  const std::string huge_id = "99999999999\tgo\tgo\tVERB\t_\t_\t0\troot\t_\t_\n\n";
  const std::string huge_range = "1-99999999999\tgo\t_\t_\t_\t_\t_\t_\t_\t_\n1\tgo\tgo\tVERB\t_\t_\t0\troot\t_\t_\n\n";
  for (const auto& text : {huge_head, huge_id, huge_range}) {
    EXPECT_NE(read_error("huge.conllu", text).find("huge.conllu:1: "), std::string::npos) << text;
    const auto path = synmt::test::write_tmp("huge_eval.conllu", text);
    try {
      synmt::eval::read_conllu(path);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const synmt::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("huge_eval.conllu:1: "), std::string::npos) << e.what();
    }
  }
}
