#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "core/hdf5_file.h"
#include "parse/parse_cache.h"
#include "tests/test_util.h"

namespace {
synmt::parse::ParsedCorpus sample() {
  synmt::parse::ParsedCorpus p;
  p.corpus_sha256 = "abc";
  p.parser_id = "builtin:123";
  p.add({2, 0}, {"nsubj", "root"}, {"PRON", "VERB"});
  p.add({0, 1, 1}, {"root", "obj", "punct"}, {"VERB", "NOUN", "PUNCT"});
  return p;
}

std::string error_of(const std::string& path, const std::string& corpus, const std::string& parser) {
  try {
    synmt::parse::read_parse_cache(path, corpus, parser);
  } catch (const synmt::InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(ParseCache, RoundTripAndKeyChecks) {
  const auto path = synmt::test::tmp_path("cache.h5");
  synmt::parse::write_parse_cache(path, sample());
  auto p = synmt::parse::read_parse_cache(path, "abc", "builtin:123");
  EXPECT_EQ(p.size(), 2u);
  EXPECT_EQ(p.sentence_heads(1), (std::vector<int32_t>{0, 1, 1}));
  EXPECT_EQ(p.label_names[static_cast<std::size_t>(p.sentence_labels(1)[2])], "punct");
  EXPECT_EQ(p.upos_names.size(), 4u);
  EXPECT_TRUE(synmt::parse::parse_cache_matches(path, "abc", "builtin:123"));
  EXPECT_FALSE(synmt::parse::parse_cache_matches(path, "abd", "builtin:123"));
  EXPECT_NE(error_of(path, "other", "").find("belongs to another corpus"), std::string::npos);
  EXPECT_NE(error_of(path, "abc", "corenlp:x").find("made by another parser"), std::string::npos);
}

TEST(ParseCache, TruncatedOrCorruptFilesAreRefused) {
  const auto path = synmt::test::tmp_path("cache2.h5");
  synmt::parse::write_parse_cache(path, sample());
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const auto truncated = synmt::test::write_tmp("cache_trunc.h5", bytes.substr(0, bytes.size() / 2));
  EXPECT_NE(error_of(truncated, "", ""), "");
  EXPECT_NE(error_of(synmt::test::write_tmp("cache_junk.h5", "not hdf5"), "", ""), "");
  EXPECT_NE(error_of(synmt::test::tmp_path("no_such_cache.h5"), "", "").find("not found"), std::string::npos);
  // a file that is valid HDF5 with the right key but altered arrays: the checksum catches it
  {
    synmt::H5File in(path, synmt::H5File::Mode::Read);
    synmt::H5File out(synmt::test::tmp_path("cache_altered.h5"), synmt::H5File::Mode::Create);
    auto heads = in.read_int32("heads");
    heads[0] = 0;
    out.write("heads", heads);
    out.write("labels", in.read_int32("labels"));
    out.write("upos", in.read_int32("upos"));
    out.write("offsets", in.read_int64("offsets"));
    for (const char* a : {"format", "corpus_sha256", "parser_id", "label_names", "upos_names", "content_sha256"})
      out.set_attribute(a, in.attribute(a));
  }
  EXPECT_NE(error_of(synmt::test::tmp_path("cache_altered.h5"), "abc", "").find("corrupt"), std::string::npos);
}

// Hardening found while writing the fuzz targets (tests/fuzz): label and UPOS ids are checked
// against the cache's name lists (a consumer indexes the names with them).
TEST(ParseCache, IdsOutsideTheNameListsAreRefused) {
  for (bool label : {true, false}) {
    auto p = sample();
    (label ? p.labels : p.upos)[0] = 7;
    const auto path = synmt::test::tmp_path(label ? "bad_label.h5" : "bad_upos.h5");
    synmt::parse::write_parse_cache(path, p);  // a valid content checksum over the bad ids
    try {
      synmt::parse::read_parse_cache(path, "", "");
      FAIL() << "an id outside the names was accepted";
    } catch (const synmt::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(label ? "a label id (7)" : "a UPOS id (7)"), std::string::npos) << e.what();
    }
  }
}
