#include <gtest/gtest.h>

#include "core/config.h"

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
