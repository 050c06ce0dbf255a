#include <gtest/gtest.h>

#include "tests/test_util.h"

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>
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

namespace {
// Unicode Table 3-7 byte by byte: the oracle for find_invalid's word-at-a-time fast paths.
std::size_t invalid_at_reference(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0x80) len = 1;
    else if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c >= 0xE0 && c <= 0xEF) len = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4) len = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else return i;
    if (i + len > s.size()) return i;
    for (std::size_t k = 1; k < len; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if (k == 1 ? (b < lo || b > hi) : (b & 0xC0) != 0x80) return i;
    }
    i += len;
  }
  return std::string::npos;
}
}  // namespace

TEST(Utf8, FindInvalidAgreesWithByteByByteValidationOnRandomText) {
  // ASCII runs of every length around the 8- and 32-byte steps, valid multi-byte characters and
  // now and then a random byte
  std::mt19937 rng(7);
  const std::vector<std::string> pieces = {"ä", "€", "日", "\xF0\x9F\x98\x80", " ", "\n"};
  for (int round = 0; round < 20000; ++round) {
    std::string s;
    const int parts = static_cast<int>(rng() % 6);
    for (int p = 0; p < parts; ++p) {
      s.append(rng() % 70, 'a' + static_cast<char>(rng() % 26));
      s += pieces[rng() % pieces.size()];
      if (rng() % 8 == 0) s.push_back(static_cast<char>(rng() % 256));
    }
    if (rng() % 10 == 0 && !s.empty()) s.pop_back();  // sometimes a truncated character
    ASSERT_EQ(synmt::utf8::find_invalid(s), invalid_at_reference(s)) << "round " << round;
  }
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
  std::filesystem::remove(b);
  {
    synmt::AtomicFile fa(a), fb(b);
    for (int i = 0; i < 20000; ++i) {
      fa.write_line("source line " + std::to_string(i));
      fb.write_line("target " + std::to_string(i) + " with other length");
    }
    EXPECT_FALSE(std::filesystem::exists(a));
    EXPECT_FALSE(std::filesystem::exists(b));
    fa.commit();
    EXPECT_FALSE(std::filesystem::exists(b));  // each file on its own commit
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
