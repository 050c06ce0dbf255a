#include <gtest/gtest.h>

#include "core/config.h"
#include "core/error.h"
#include "tests/test_util.h"

using synmt::ConfigError;
using synmt::Json;

TEST(Config, OverrideParsesJsonValuesAndRejectsUnknownKeys) {
  Json c = {{"train", {{"lr", 0.001}, {"epochs", 3}}}, {"name", "x"}};
  synmt::apply_override(c, "train.lr=0.5");
  synmt::apply_override(c, "name=hello world");
  EXPECT_DOUBLE_EQ(c["train"]["lr"].get<double>(), 0.5);
  EXPECT_EQ(c["name"], "hello world");
  EXPECT_THROW(synmt::apply_override(c, "train.lrr=1"), ConfigError);
  EXPECT_THROW(synmt::apply_override(c, "novalue"), ConfigError);
}

TEST(Config, JsonFieldsReportsUnknownAndMissingKeys) {
  Json j = {{"hidden", 8}, {"typo_key", 1}};
  int hidden = 0, layers = 2;
  synmt::JsonFields f(j, "model");
  f.optional("hidden", hidden).optional("layers", layers);
  EXPECT_EQ(hidden, 8);
  EXPECT_EQ(layers, 2);
  try {
    f.finish();
    FAIL() << "unknown key accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("typo_key"), std::string::npos);
  }
  synmt::JsonFields g(j, "model");
  int missing = 0;
  EXPECT_THROW(g.required("layers", missing), ConfigError);
  Json bad = {{"hidden", "eight"}};
  synmt::JsonFields h(bad, "model");
  EXPECT_THROW(h.optional("hidden", hidden), ConfigError);
}

TEST(Config, MergeOverlaysNestedObjects) {
  Json base = {{"a", {{"x", 1}, {"y", 2}}}, {"b", 1}};
  synmt::merge_json(base, {{"a", {{"y", 3}}}});
  EXPECT_EQ(base["a"]["x"], 1);
  EXPECT_EQ(base["a"]["y"], 3);
}

// Fuzzing finding (tests/fuzz/fuzz_json_config): a number too large for a double made the JSON
// library throw out_of_range, which escaped load_json_file without the file's name.
TEST(Config, NumberOverflowIsAnInputErrorNamingTheFile) {
  const auto path = synmt::test::write_tmp("overflow.json", "{\"train\": {\"lr\": 3e333}}\n");
  try {
    synmt::load_json_file(path);
    FAIL() << "accepted";
  } catch (const synmt::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("overflow.json: invalid JSON"), std::string::npos) << e.what();
  }
}

// Option values from a closed set are enums read from their names (core/config.h EnumNames).
namespace {
enum class Colour { kRed, kGreen };
}  // namespace
template <>
struct synmt::EnumNames<Colour> {
  static constexpr std::array<std::pair<Colour, const char*>, 2> list{{{Colour::kRed, "red"}, {Colour::kGreen, "green"}}};
};
namespace {
struct Paint {
  Colour colour = Colour::kRed;
  template <class Self, class Visit>
  static void fields(Self& o, Visit&& v) {
    v("colour", o.colour);
  }
};
}  // namespace

TEST(Config, EnumOptionsReadAndWriteTheirNames) {
  auto p = synmt::options_from_json<Paint>(synmt::Json{{"colour", "green"}}, "paint");
  EXPECT_EQ(p.colour, Colour::kGreen);
  EXPECT_EQ(synmt::options_to_json(p), (synmt::Json{{"colour", "green"}}));
  try {
    synmt::options_from_json<Paint>(synmt::Json{{"colour", "blue"}}, "paint");
    FAIL() << "accepted";
  } catch (const synmt::ConfigError& e) {
    EXPECT_STREQ(e.what(), "paint.colour: 'blue' is none of red | green");
  }
  EXPECT_THROW(synmt::options_from_json<Paint>(synmt::Json{{"colour", 1}}, "paint"), synmt::ConfigError);
}
