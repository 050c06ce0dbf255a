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

// A preset's score modifiers are changed field by field: an entry merges into the entry of its kind
// (the others stay), a new kind is appended; an empty list, or a list where a kind repeats, replaces.
TEST(Config, MergeListsOfKindsByKind) {
  Json base = {{"mods", {{{"kind", "pascal"}, {"layer", 0}, {"sigma", 1.0}}, {{"kind", "sisa"}, {"head", -1}}}}};
  synmt::merge_json(base, {{"mods", {{{"kind", "pascal"}, {"sigma", 4.0}}, {{"kind", "bias"}, {"layer", 2}}}}});
  ASSERT_EQ(base["mods"].size(), 3u);
  EXPECT_EQ(base["mods"][0], Json({{"kind", "pascal"}, {"layer", 0}, {"sigma", 4.0}}));
  EXPECT_EQ(base["mods"][1], Json({{"kind", "sisa"}, {"head", -1}}));
  EXPECT_EQ(base["mods"][2], Json({{"kind", "bias"}, {"layer", 2}}));
  Json cleared = base;
  synmt::merge_json(cleared, {{"mods", Json::array()}});
  EXPECT_TRUE(cleared["mods"].empty());
  Json twice = base;  // which pascal entry would an overlay mean? The list is taken as given.
  const Json two = {{{"kind", "pascal"}, {"layer", 0}}, {{"kind", "pascal"}, {"layer", 1}}};
  synmt::merge_json(twice, {{"mods", two}});
  EXPECT_EQ(twice["mods"], two);
  Json plain = {{"heads", {0, 1, 2}}};  // lists of numbers replace, as before
  synmt::merge_json(plain, {{"heads", {3}}});
  EXPECT_EQ(plain["heads"], Json({3}));
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
