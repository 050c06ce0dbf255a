#include <gtest/gtest.h>

#include "tests/test_util.h"

#include <filesystem>
#include <fstream>
#include <limits>

#include "core/error.h"
#include "core/hdf5_file.h"
#include "core/ragged.h"
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
  EXPECT_EQ(back.src_offsets, d.src_offsets);
  EXPECT_EQ(back.tgt_tokens, d.tgt_tokens);
  EXPECT_EQ(back.tgt_offsets, d.tgt_offsets);
  for (const auto& [key, value] : d.attributes) EXPECT_EQ(back.attributes[key], value) << key;
  auto other = synmt::Vocab::build({{"a", 3}, {"z", 2}}, {});
  try {
    synmt::read_parallel_data(path, other.hash(), vocab.hash());
    FAIL() << "mismatched vocabulary accepted";
  } catch (const synmt::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("vocabulary mismatch"), std::string::npos);
  }
}

// The surface forms of <unk> tokens (LGP-NMT's n-grams, UnkRep) survive the file, sentence by
// sentence; a file whose forms do not match its <unk> count is refused, and add() refuses forms
// that do not match the sentence.
TEST(Dataset, UnknownWordFormsRoundTripPerSentence) {
  auto vocab = synmt::Vocab::build({{"a", 3}, {"b", 2}}, {});
  const auto ids = [&](const std::string& line) { return vocab.encode(line); };
  synmt::ParallelData d;
  d.add(ids("a zebra b yak"), ids("a"), {"zebra", "yak"});
  d.add(ids("b b"), ids("a"), {});
  d.add(ids("émeu"), ids("b"), {"émeu"});
  EXPECT_THROW(d.add(ids("a quokka"), ids("a"), {}), std::invalid_argument);
  EXPECT_THROW(d.add(ids("a quokka"), ids("a")), std::invalid_argument);  // forms known: they must come
  EXPECT_EQ(d.size(), 3u);
  d.attributes = {{"src_vocab_sha256", vocab.hash()}, {"tgt_vocab_sha256", vocab.hash()}};
  auto path = tmp("forms.h5");
  synmt::write_parallel_data(path, d);
  auto back = synmt::read_parallel_data(path, vocab.hash(), vocab.hash());
  ASSERT_TRUE(back.has_unknown_forms());
  EXPECT_EQ(back.unknown_forms(0), (std::vector<std::string>{"zebra", "yak"}));
  EXPECT_EQ(back.unknown_forms(1), std::vector<std::string>{});
  EXPECT_EQ(back.unknown_forms(2), std::vector<std::string>{"émeu"});
  // a dataset without forms (an older file) says so
  synmt::ParallelData old;
  old.add(ids("a zebra"), ids("a"));
  old.attributes = d.attributes;
  synmt::write_parallel_data(tmp("old.h5"), old);
  EXPECT_FALSE(synmt::read_parallel_data(tmp("old.h5"), "", "").has_unknown_forms());
  {  // stored as the forms separated by newlines
    synmt::H5File f(path, synmt::H5File::Mode::Read);
    auto bytes = f.read_bytes("src_unknown_forms");
    EXPECT_EQ(std::string(bytes.begin(), bytes.end()), "zebra\nyak\némeu\n");
  }
  // a file with 2 forms for its 3 <unk> tokens is refused, naming the array
  const std::string two_forms = "zebra\nyak\n";
  {
    synmt::H5File out(tmp("bad_forms.h5"), synmt::H5File::Mode::Create);
    out.write("src_tokens", d.src_tokens);
    out.write("src_offsets", d.src_offsets);
    out.write("tgt_tokens", d.tgt_tokens);
    out.write("tgt_offsets", d.tgt_offsets);
    out.write("src_unknown_forms", std::vector<uint8_t>(two_forms.begin(), two_forms.end()));
    out.set_attribute("format", synmt::kDatasetFormat);
    out.set_attribute("src_vocab_sha256", vocab.hash());
    out.set_attribute("tgt_vocab_sha256", vocab.hash());
    out.close();
  }
  try {
    synmt::read_parallel_data(tmp("bad_forms.h5"), "", "");
    FAIL() << "forms that do not match the <unk> tokens accepted";
  } catch (const synmt::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("src_unknown_forms has 2 forms for 3 <unk>"), std::string::npos) << e.what();
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

// The ragged layout: tensor blocks round-trip with their shapes; offsets that do not cover the
// values, or a shape that does not match its block, are refused naming the array.
TEST(Ragged, RoundTripAndRefusalOfInconsistentLayouts) {
  synmt::Ragged<float> a;
  std::vector<float> m1{1, 2, 3, 4, 5, 6}, m2{7};
  a.add(m1.data(), {2, 3});
  a.add(m2.data(), {1, 1});
  EXPECT_THROW(a.add(m2.data(), std::vector<int32_t>{1}), std::invalid_argument);  // rank 1 after rank 2
  const synmt::RaggedNames names{"x", "x_offsets", "x_shapes"};
  {
    synmt::H5File f(tmp("ragged.h5"), synmt::H5File::Mode::Create);
    synmt::write_ragged(f, names, a);
  }
  synmt::H5File f(tmp("ragged.h5"), synmt::H5File::Mode::Read);
  auto b = synmt::read_ragged<float>(f, names);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b.shape(0), (std::vector<int32_t>{2, 3}));
  EXPECT_EQ(b.shape(1), (std::vector<int32_t>{1, 1}));
  EXPECT_EQ(std::vector<float>(b.block(0), b.block(0) + 6), m1);
  EXPECT_EQ(b.block(1)[0], 7.0f);
  {
    synmt::H5File g(tmp("ragged_bad.h5"), synmt::H5File::Mode::Create);
    synmt::Ragged<float> bad = a;
    bad.offsets.back() = 5;  // does not cover the values
    synmt::write_ragged(g, names, bad);
  }
  // the refusals name the file and the array
  auto refusal = [&](synmt::H5File& file) {
    try {
      synmt::read_ragged<float>(file, names);
    } catch (const synmt::InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  synmt::H5File g(tmp("ragged_bad.h5"), synmt::H5File::Mode::Read);
  const auto offsets = refusal(g);
  EXPECT_NE(offsets.find("ragged_bad.h5"), std::string::npos) << offsets;
  EXPECT_NE(offsets.find("array 'x': offsets do not cover the values"), std::string::npos) << offsets;
  {
    synmt::H5File h(tmp("ragged_shape.h5"), synmt::H5File::Mode::Create);
    synmt::Ragged<float> bad = a;
    bad.shapes[0] = 3;  // 3 x 3 != 6 values
    synmt::write_ragged(h, names, bad);
  }
  synmt::H5File h(tmp("ragged_shape.h5"), synmt::H5File::Mode::Read);
  const auto shape = refusal(h);
  EXPECT_NE(shape.find("ragged_shape.h5"), std::string::npos) << shape;
  EXPECT_NE(shape.find("array 'x': item 1: shape does not match its block size"), std::string::npos) << shape;
}

// Hardening found while writing the fuzz targets (tests/fuzz): negative dimensions whose product
// matches the block size, a NaN parent position, offsets that do not start at 0.
TEST(Ragged, NegativeDimensionsAndOffsetsNotFromZeroAreRefused) {
  const synmt::RaggedNames names{"v", "v_offsets", "v_shapes"};
  {
    synmt::H5File f(tmp("ragged_negative.h5"), synmt::H5File::Mode::Create);
    f.write("v", std::vector<float>(6, 1.0f));
    f.write("v_offsets", std::vector<int64_t>{0, 6});
    f.write("v_shapes", std::vector<int32_t>{-2, -3});  // (-2) x (-3) = 6
  }
  synmt::H5File f(tmp("ragged_negative.h5"), synmt::H5File::Mode::Read);
  EXPECT_THROW(synmt::read_ragged<float>(f, names), synmt::InputError);
  EXPECT_THROW(synmt::check_offsets("x.h5", {-2, 4}, 4, "a: "), synmt::InputError);
  EXPECT_THROW(synmt::check_offsets("x.h5", {0, 5, 4}, 4, "a: "), synmt::InputError);
  EXPECT_NO_THROW(synmt::check_offsets("x.h5", {0, 0, 4}, 4, "a: "));
}

TEST(Dataset, NaNParentPositionIsRefused) {
  synmt::ParallelData d;
  d.add({5, 6}, {7});
  d.src_word = {0, 1};
  d.src_parent_middle = {1.0f, std::numeric_limits<float>::quiet_NaN()};
  d.src_parent_first = {1, 0};
  d.src_label = {1, 1};
  d.src_label_names = {"<unk>", "root"};
  d.attributes = {{"src_vocab_sha256", "s"}, {"tgt_vocab_sha256", "t"}};
  synmt::write_parallel_data(tmp("nan_parent.h5"), d);
  try {
    synmt::read_parallel_data(tmp("nan_parent.h5"), "", "");
    FAIL() << "a NaN parent position was accepted";
  } catch (const synmt::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("parent position is outside the sentence"), std::string::npos) << e.what();
  }
}
