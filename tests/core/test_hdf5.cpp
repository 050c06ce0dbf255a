#include <gtest/gtest.h>

#include "tests/test_util.h"

#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "preprocess/dataset_file.h"
#include "preprocess/vocab.h"

namespace {
std::string tmp(const std::string& name) { return synmt::test::tmp_path(name); }
}  // namespace

TEST(Dataset, RoundTripAndVocabularyMismatchIsRefused) {
  auto vocab = synmt::Vocab::build({{"a", 3}, {"b", 2}, {"c", 1}}, {});
  synmt::ParallelData d;
  d.add(vocab.encode("a b"), vocab.encode("c"));
  d.add(vocab.encode("b b c"), vocab.encode("a a"));
  d.attributes = {{"src_vocab_sha256", vocab.hash()}, {"tgt_vocab_sha256", vocab.hash()}};
  auto path = tmp("round.h5");
  synmt::write_parallel_data(path, d);
  auto back = synmt::read_parallel_data(path, vocab.hash(), vocab.hash());
  EXPECT_EQ(back.size(), 2u);
  EXPECT_EQ(back.src_tokens, d.src_tokens);
  EXPECT_EQ(back.tgt_offsets, d.tgt_offsets);
  auto other = synmt::Vocab::build({{"a", 3}, {"z", 2}}, {});
  try {
    synmt::read_parallel_data(path, other.hash(), vocab.hash());
    FAIL() << "mismatched vocabulary accepted";
  } catch (const synmt::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("vocabulary mismatch"), std::string::npos);
  }
}

TEST(Dataset, TruncatedFileIsRefused) {
  auto vocab = synmt::Vocab::build({{"a", 3}}, {});
  synmt::ParallelData d;
  for (int i = 0; i < 1000; ++i) d.add(vocab.encode("a a a"), vocab.encode("a"));
  d.attributes = {{"src_vocab_sha256", vocab.hash()}, {"tgt_vocab_sha256", vocab.hash()}};
  auto path = tmp("trunc.h5");
  synmt::write_parallel_data(path, d);
  auto size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, size / 2);
  EXPECT_THROW(synmt::read_parallel_data(path, "", ""), synmt::InputError);
  std::ofstream(tmp("garbage.h5")) << "not hdf5 at all";
  EXPECT_THROW(synmt::read_parallel_data(tmp("garbage.h5"), "", ""), synmt::InputError);
}
