#include <gtest/gtest.h>

#include "tests/test_util.h"

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/line_reader.h"
#include "core/output_buffer.h"
#include "core/parallel_lines.h"
#include "core/string_hash.h"
#include "preprocess/bpe.h"
#include "preprocess/word_cache.h"

using synmt::test::write_tmp;

TEST(StringHash, ShortLoadsEqualZeroPaddedCopies) {
  // load_short's overlapping loads against the plain zero-padded copy, and string_hash against
  // the chunk-by-chunk definition, for every length up to 24 on random bytes
  std::mt19937 rng(3);
  for (int round = 0; round < 2000; ++round) {
    std::string s(rng() % 25, '\0');
    for (auto& c : s) c = static_cast<char>(rng());
    for (std::size_t n = 1; n <= std::min<std::size_t>(7, s.size()); ++n) {
      uint64_t expected = 0;
      std::memcpy(&expected, s.data(), n);
      ASSERT_EQ(synmt::load_short(s.data(), n), expected) << n;
    }
    uint64_t h = synmt::kStringHashStart;
    for (std::size_t i = 0; i < s.size(); i += 8) {
      uint64_t w = 0;
      std::memcpy(&w, s.data() + i, std::min<std::size_t>(8, s.size() - i));
      h = synmt::string_hash_chunk(h, w);
    }
    ASSERT_EQ(synmt::string_hash(s), synmt::string_hash_finish(h, s.size())) << s.size();
  }
}

TEST(WordCache, FindsWhatWasInsertedThroughGrowthAndOutsizedEntries) {
  synmt::WordCache cache;
  std::vector<std::string> keys;
  for (int i = 0; i < 20000; ++i) keys.push_back("w" + std::to_string(i * 7919));
  const std::string big_key(3 << 20, 'k'), big_value(5 << 20, 'v');  // larger than an arena block
  for (std::size_t i = 0; i < keys.size(); ++i) {
    cache.insert(keys[i], synmt::string_hash(keys[i]), keys[i] + "@@ x");
    if (i == 5000) cache.insert(big_key, synmt::string_hash(big_key), big_value);
  }
  EXPECT_EQ(cache.size(), keys.size() + 1);
  std::string_view value;
  for (const auto& k : keys) {
    ASSERT_TRUE(cache.find(k, synmt::string_hash(k), value)) << k;
    EXPECT_EQ(value, k + "@@ x");
  }
  ASSERT_TRUE(cache.find(big_key, synmt::string_hash(big_key), value));
  EXPECT_EQ(value.size(), big_value.size());
  EXPECT_FALSE(cache.find("absent", synmt::string_hash("absent"), value));
  std::size_t seen = 0;
  cache.for_each([&](std::string_view k, uint64_t h, std::string_view) {
    EXPECT_EQ(h, synmt::string_hash(k));
    if (seen < keys.size() && seen != 5001) EXPECT_EQ(k, keys[seen < 5001 ? seen : seen - 1]);
    ++seen;
  });
  EXPECT_EQ(seen, keys.size() + 1);
}

TEST(WordCache, ReusesItsFirstBlockAfterClearButNeverAnOutsizedOne) {
  // clear() keeps the first arena block; entries past it and after an outsized first entry must
  // still be found (entry ids address offsets within 1 MiB blocks only)
  for (bool outsized_first : {false, true}) {
    synmt::WordCache cache;
    for (int round = 0; round < 3; ++round) {
      std::vector<std::string> keys;
      if (outsized_first && round == 0) keys.push_back(std::string(2 << 20, 'o'));
      for (int i = 0; i < 60000; ++i) keys.push_back("r" + std::to_string(round) + "w" + std::to_string(i));
      for (const auto& k : keys) cache.insert(k, synmt::string_hash(k), k + "@@ " + k);  // > 1 MiB in all
      std::string_view value;
      for (const auto& k : keys) {
        ASSERT_TRUE(cache.find(k, synmt::string_hash(k), value)) << k.substr(0, 20) << " round " << round;
        ASSERT_EQ(value, k + "@@ " + k);
      }
      cache.clear();
      EXPECT_EQ(cache.size(), 0u);
      EXPECT_FALSE(cache.find(keys.back(), synmt::string_hash(keys.back()), value));
    }
  }
}

TEST(OutputBuffer, ReservedSpaceKeepsWhatWasWritten) {
  synmt::OutputBuffer out;
  out.append("head ");
  std::string expected = "head ";
  for (int i = 0; i < 2000; ++i) {  // grows through several reallocations
    char* p = out.reserve_more(100);
    const std::string piece = std::to_string(i) + ",";
    std::memcpy(p, piece.data(), piece.size());
    out.set_end(p + piece.size());
    expected += piece;
  }
  out.push_back('!');
  EXPECT_EQ(out.view(), expected + "!");
  out.clear();
  EXPECT_EQ(out.size(), 0u);
}

TEST(WordCache, StartsAfreshPastItsBound) {
  synmt::WordCache cache(/*max_entries=*/100);
  for (int i = 0; i < 150; ++i) {
    const std::string k = std::to_string(i);
    cache.insert(k, synmt::string_hash(k), k);
  }
  EXPECT_EQ(cache.size(), 50u);  // reset at 100, then 50 more
  std::string_view v;
  EXPECT_FALSE(cache.find("3", synmt::string_hash("3"), v));
  EXPECT_TRUE(cache.find("149", synmt::string_hash("149"), v));
}

TEST(Bpe, TwoCodesObjectsInOneThreadKeepTheirOwnCaches) {
  // per-thread caches are keyed by object: a second object (even at the same address) must not
  // see the first one's segmentations
  auto codes_ab = write_tmp("codes_ab", "#version: 0.2\na b</w>\n");
  auto codes_none = write_tmp("codes_xy", "#version: 0.2\nx y</w>\n");
  for (int round = 0; round < 2; ++round) {
    {
      synmt::BpeCodes bpe(codes_ab);
      EXPECT_EQ(bpe.apply_line("ab"), "ab");
      bpe.share_cached_words();
      EXPECT_EQ(bpe.apply_line("ab ab"), "ab ab");
    }
    {
      synmt::BpeCodes bpe(codes_none);
      EXPECT_EQ(bpe.apply_line("ab ab"), "a@@ b a@@ b");
    }
  }
}

TEST(ParallelLines, WorkersNameTheFirstInvalidLineOfTheFile) {
  // 45,000 lines: the invalid ones sit in the third chunk, in both workers' blocks
  std::string text;
  for (int i = 1; i <= 45000; ++i) text += (i == 43210 || i == 44444 ? std::string("bad \xC3\x28 line") : "line " + std::to_string(i)) + "\n";
  const auto path = write_tmp("many_lines", text);
  for (int threads : {1, 2, 3}) {
    synmt::LineReader in(path);
    synmt::AtomicFile out(synmt::test::tmp_path("many_lines.out"));
    try {
      synmt::map_lines_into(in, out, threads, [](std::string_view l, synmt::OutputBuffer& o) { o.append(l); });
      FAIL() << "no error with " << threads << " threads";
    } catch (const synmt::InputError& e) {
      EXPECT_EQ(e.line(), 43210u) << threads << " threads";
      EXPECT_NE(std::string(e.what()).find("invalid UTF-8 at byte 5"), std::string::npos) << e.what();
    }
  }
  // and valid input comes out whole and in order
  std::string ok;
  for (int i = 1; i <= 45000; ++i) ok += "line " + std::to_string(i) + "\n";
  const auto ok_path = write_tmp("many_ok", ok);
  synmt::LineReader in(ok_path);
  synmt::AtomicFile out(synmt::test::tmp_path("many_ok.out"));
  synmt::map_lines_into(in, out, 2, [](std::string_view l, synmt::OutputBuffer& o) {
    o.append(l);
    o.push_back('!');
  });
  out.commit();
  const auto lines = synmt::read_lines(synmt::test::tmp_path("many_ok.out"));
  ASSERT_EQ(lines.size(), 45000u);
  EXPECT_EQ(lines[0], "line 1!");
  EXPECT_EQ(lines[44999], "line 45000!");
}
