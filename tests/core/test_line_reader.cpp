#include <gtest/gtest.h>

#include "tests/test_util.h"

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "core/error.h"
#include "core/line_reader.h"
#include "core/utf8.h"

using synmt::test::write_tmp;

TEST(Utf8, FindsInvalidSequences) {
  EXPECT_TRUE(synmt::utf8::is_valid("Grüße, 日本"));
  EXPECT_EQ(synmt::utf8::find_invalid("ab\xC3"), 2u);          // truncated
  EXPECT_EQ(synmt::utf8::find_invalid("a\xC0\xAF"), 1u);       // overlong '/'
  EXPECT_EQ(synmt::utf8::find_invalid("\xED\xA0\x80"), 0u);    // surrogate
  EXPECT_EQ(synmt::utf8::decode("é€").size(), 2u);
}

TEST(LineReader, StripsBomAndCrAndCountsLines) {
  auto path = write_tmp("bom.txt", "\xEF\xBB\xBFone\r\ntwo\nthree");
  synmt::LineReader r(path);
  std::string line;
  ASSERT_TRUE(r.next(line));
  EXPECT_EQ(line, "one");
  ASSERT_TRUE(r.next(line));
  EXPECT_EQ(line, "two");
  ASSERT_TRUE(r.next(line));
  EXPECT_EQ(line, "three");
  EXPECT_FALSE(r.next(line));
  EXPECT_EQ(r.line_number(), 3u);
}

TEST(LineReader, InvalidUtf8NamesFileAndLine) {
  auto path = write_tmp("bad.txt", "fine\nalso fine\nbroken \xFF here\n");
  synmt::LineReader r(path);
  std::string line;
  r.next(line);
  r.next(line);
  try {
    r.next(line);
    FAIL() << "invalid UTF-8 accepted";
  } catch (const synmt::InputError& e) {
    EXPECT_EQ(e.line(), 3u);
    EXPECT_NE(std::string(e.what()).find("bad.txt:3"), std::string::npos);
  }
}

TEST(LineReader, OverlongLineIsAnError) {
  auto path = write_tmp("long.txt", std::string(100, 'x') + "\n");
  synmt::LineReaderOptions o;
  o.max_line_bytes = 50;
  synmt::LineReader r(path, o);
  std::string line;
  EXPECT_THROW(r.next(line), synmt::InputError);
}

#include "core/atomic_file.h"

TEST(AtomicFile, TwoFilesWrittenInTurnStayApartAndAppearOnlyOnCommit) {
  std::string a = std::string(SYNMT_TEST_TMP) + "/pair.a", b = std::string(SYNMT_TEST_TMP) + "/pair.b";
  std::filesystem::remove(a);
  {
    synmt::AtomicFile fa(a), fb(b);
    for (int i = 0; i < 20000; ++i) {
      fa.write_line("source line " + std::to_string(i));
      fb.write_line("target " + std::to_string(i) + " with other length");
    }
    EXPECT_FALSE(std::filesystem::exists(a));
    fa.commit();
    fb.commit();
  }
  auto la = synmt::read_lines(a), lb = synmt::read_lines(b);
  ASSERT_EQ(la.size(), 20000u);
  ASSERT_EQ(lb.size(), 20000u);
  EXPECT_EQ(la[12345], "source line 12345");
  EXPECT_EQ(lb[12345], "target 12345 with other length");
  {
    synmt::AtomicFile never(std::string(SYNMT_TEST_TMP) + "/never");
    never.write("x");
  }
  EXPECT_FALSE(std::filesystem::exists(std::string(SYNMT_TEST_TMP) + "/never"));
}

TEST(AtomicFile, DevicesAreWrittenInPlaceNeverReplaced) {
  // `-o /dev/null` once renamed a temporary file over /dev/null, turning the device into a file.
  {
    synmt::AtomicFile null_out("/dev/null");
    null_out.write_line("discarded");
    null_out.commit();
  }
  { synmt::AtomicPath null_path("/dev/null"); null_path.commit(); }
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
  EXPECT_FALSE(std::filesystem::exists("/dev/null.tmp." + std::to_string(::getpid())));
}

TEST(LineReader, NextLinesMatchesNextLineByLine) {
  // BOM, CRLF, an empty line, an invalid line (flagged mode drops and counts it), no final newline
  std::string text = "\xEF\xBB\xBF" "first\r\nsecond\n\nbad \xC3\x28\n";
  for (int i = 0; i < 3000; ++i) text += "line " + std::to_string(i) + "\n";
  text += "last without newline";
  const auto path = synmt::test::write_tmp("next_lines.txt", text);
  synmt::LineReaderOptions o;
  o.flag_invalid = true;
  std::vector<std::string> expected;
  {
    synmt::LineReader r(path, o);
    std::string line;
    while (r.next(line))
      if (!r.last_line_invalid()) expected.push_back(line);
    EXPECT_EQ(r.invalid_lines(), 1u);
  }
  for (std::size_t batch : {1u, 7u, 1000u, 100000u}) {
    synmt::LineReader r(path, o);
    std::vector<std::string> got;
    std::string first;
    ASSERT_TRUE(r.next(first));  // mixing next() and next_lines() continues where it left off
    got.push_back(first);
    std::string chunk;
    std::vector<std::string_view> lines;
    while (r.next_lines(chunk, lines, batch))
      for (auto l : lines) got.emplace_back(l);
    EXPECT_EQ(got, expected) << "batch " << batch;
    EXPECT_EQ(r.invalid_lines(), 1u);
    EXPECT_EQ(r.line_number(), 3005u);
  }
  synmt::LineReaderOptions strict;
  synmt::LineReader r(path, strict);
  std::string chunk;
  std::vector<std::string_view> lines;
  try {
    r.next_lines(chunk, lines, 100);
    FAIL() << "invalid UTF-8 accepted";
  } catch (const synmt::InputError& e) {
    EXPECT_EQ(e.line(), 4u);
  }
}
