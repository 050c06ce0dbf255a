// content_sha256: the same sentences and features give the same digest however the file was
// written; any change to what a model reads gives another one.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "preprocess/dataset_digest.h"
#include "preprocess/dataset_file.h"

namespace {

synmt::ParallelData two_pairs() {
  synmt::ParallelData d;
  d.add({4, 5, 6}, {7, 8});
  d.add({9, 10}, {11, 12, 13});
  d.src_parent_middle = {1.0f, 1.0f, 0.0f, 0.0f, 0.0f};
  d.src_parent_first = {1, 1, 0, 0, 0};
  d.src_label = {1, 2, 1, 2, 1};
  d.src_label_names = {"<unk>", "nsubj", "root"};
  return d;
}

TEST(DatasetDigest, TheSameContentGivesTheSameDigestAndAnyChangeAnother) {
  const auto base = synmt::content_sha256(two_pairs());
  EXPECT_EQ(base.size(), 64u);
  EXPECT_EQ(base, synmt::content_sha256(two_pairs()));
  auto provenance = two_pairs();
  provenance.attributes["src_vocab_sha256"] = "something else";  // not content
  EXPECT_EQ(base, synmt::content_sha256(provenance));

  auto parent = two_pairs();
  parent.src_parent_middle[2] = 1.5f;  // one token's parent: another parse of the same text
  EXPECT_NE(base, synmt::content_sha256(parent));
  auto label = two_pairs();
  label.src_label_names[1] = "obj";
  EXPECT_NE(base, synmt::content_sha256(label));
  // the same ids split into sentences differently
  synmt::ParallelData resplit;
  resplit.add({4, 5}, {7, 8});
  resplit.add({6, 9, 10}, {11, 12, 13});
  resplit.src_parent_middle = two_pairs().src_parent_middle;
  resplit.src_parent_first = two_pairs().src_parent_first;
  resplit.src_label = two_pairs().src_label;
  resplit.src_label_names = two_pairs().src_label_names;
  EXPECT_NE(base, synmt::content_sha256(resplit));
  // an id moved from the source to the target
  synmt::ParallelData moved;
  moved.add({4, 5}, {6, 7, 8});
  moved.add({9, 10}, {11, 12, 13});
  synmt::ParallelData plain;
  plain.add({4, 5, 6}, {7, 8});
  plain.add({9, 10}, {11, 12, 13});
  EXPECT_NE(synmt::content_sha256(plain), synmt::content_sha256(moved));
}

// Every array a model may read, changed one at a time (one entry per array: 13, the count
// dataset_digest.cpp asserts ParallelData has).
TEST(DatasetDigest, EveryArrayOfTheDatasetIsPartOfTheDigest) {
  auto full = [] {
    auto d = two_pairs();
    d.src_word = {0, 0, 1, 0, 1};
    d.src_upos = {1, 1, 2, 1, 2};
    d.src_upos_names = {"<unk>", "NOUN", "VERB"};
    d.src_unknown_forms = {"Zwetschge"};
    d.src_unknown_offsets = {0, 1, 1};
    return d;
  };
  using Change = std::function<void(synmt::ParallelData&)>;
  const std::vector<std::pair<const char*, Change>> changes = {
      {"src_tokens", [](auto& d) { d.src_tokens[0] = 99; }},
      {"tgt_tokens", [](auto& d) { d.tgt_tokens[0] = 99; }},
      {"src_offsets", [](auto& d) { d.src_offsets[1] = 2; }},
      {"tgt_offsets", [](auto& d) { d.tgt_offsets[1] = 3; }},
      {"src_parent_middle", [](auto& d) { d.src_parent_middle[0] = 2.0f; }},
      {"src_parent_first", [](auto& d) { d.src_parent_first[0] = 2; }},
      {"src_label", [](auto& d) { d.src_label[0] = 2; }},
      {"src_upos", [](auto& d) { d.src_upos[0] = 2; }},
      {"src_word", [](auto& d) { d.src_word[1] = 1; }},
      {"src_label_names", [](auto& d) { d.src_label_names[2] = "obj"; }},
      {"src_upos_names", [](auto& d) { d.src_upos_names[2] = "ADJ"; }},
      {"src_unknown_forms", [](auto& d) { d.src_unknown_forms[0] = "Pflaume"; }},
      {"src_unknown_offsets", [](auto& d) { d.src_unknown_offsets[1] = 0; }},
  };
  ASSERT_EQ(changes.size(), 13u);
  const auto base = synmt::content_sha256(full());
  for (const auto& [array, change] : changes) {
    auto d = full();
    change(d);
    EXPECT_NE(base, synmt::content_sha256(d)) << array << " changed but the digest did not";
  }
}

TEST(DatasetDigest, ADatasetReadBackHasTheDigestItWasWrittenWith) {
  const std::string path = std::string(SYNMT_TEST_TMP) + "/digest_roundtrip.h5";
  std::filesystem::create_directories(SYNMT_TEST_TMP);
  auto d = two_pairs();
  d.src_word = {0, 0, 1, 0, 1};
  d.src_upos = {1, 1, 2, 1, 2};
  d.src_upos_names = {"<unk>", "NOUN", "VERB"};
  d.attributes = {{"src_vocab_sha256", "s"}, {"tgt_vocab_sha256", "t"}};
  synmt::write_parallel_data(path, d);
  EXPECT_EQ(synmt::content_sha256(synmt::read_parallel_data(path, "", "")), synmt::content_sha256(d));
}

}  // namespace
