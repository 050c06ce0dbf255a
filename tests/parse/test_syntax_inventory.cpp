// Label/UPOS inventories: <unk> first, sorted names, file round trip with the same hash, bad files
// refused with file:line.
#include <gtest/gtest.h>

#include "core/error.h"
#include "core/sha256.h"
#include "parse/parse_cache.h"
#include "parse/syntax_inventory.h"
#include "tests/test_util.h"

using synmt::parse::Inventory;

namespace {
std::string load_error(const std::string& name, const std::string& content) {
  try {
    Inventory::load(synmt::test::write_tmp(name, content));
  } catch (const synmt::InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(SyntaxInventory, UnknownFirstThenSortedNames) {
  auto inv = Inventory::from_names({"nsubj", "root", "det", "nsubj", "<unk>", "acl:relcl"});
  EXPECT_EQ(inv.names(), (std::vector<std::string>{"<unk>", "acl:relcl", "det", "nsubj", "root"}));
  EXPECT_EQ(inv.id("det"), 2);
  EXPECT_EQ(inv.id("root"), 4);
  EXPECT_EQ(inv.id("never-seen"), 0);
  EXPECT_FALSE(inv.contains("never-seen"));
  EXPECT_THROW(Inventory::from_names({"a b"}), std::invalid_argument);
}

TEST(SyntaxInventory, FileRoundTripKeepsIdsAndHash) {
  auto inv = Inventory::from_names({"VERB", "NOUN", "DET"});
  const auto path = synmt::test::tmp_path("upos.inv");
  inv.save(path);
  auto back = Inventory::load(path);
  EXPECT_EQ(back.names(), inv.names());
  EXPECT_EQ(back.hash(), synmt::sha256_file(path));
  EXPECT_EQ(back.hash(), inv.hash());  // the hash of a built inventory is that of the file it writes
  EXPECT_EQ(back.id("NOUN"), 2);
}

TEST(SyntaxInventory, BadFilesNameFileAndLine) {
  EXPECT_NE(load_error("inv_nounk.txt", "det\nroot\n").find("inv_nounk.txt:1: "), std::string::npos);
  EXPECT_NE(load_error("inv_dup.txt", "<unk>\ndet\nroot\ndet\n").find("inv_dup.txt:4: 'det' is listed twice (first on line 2)"),
            std::string::npos);
  EXPECT_NE(load_error("inv_empty_line.txt", "<unk>\ndet\n\nroot\n").find("inv_empty_line.txt:3: "), std::string::npos);
  EXPECT_NE(load_error("inv_space.txt", "<unk>\nnmod poss\n").find("inv_space.txt:2: "), std::string::npos);
  EXPECT_NE(load_error("inv_unk_twice.txt", "<unk>\n<unk>\n").find("inv_unk_twice.txt:2: "), std::string::npos);
  EXPECT_NE(load_error("inv_empty.txt", "").find("inv_empty.txt"), std::string::npos);
}

TEST(SyntaxInventory, BuiltFromTheNamesAParseCacheUses) {
  synmt::parse::ParsedCorpus p;
  p.add({0, 1}, {"root", "obj"}, {"VERB", "NOUN"});
  p.label_names.push_back("unused");  // listed by the cache but on no word: not in the inventory
  auto inv = synmt::parse::build_inventories(p);
  EXPECT_EQ(inv.labels.names(), (std::vector<std::string>{"<unk>", "obj", "root"}));
  EXPECT_EQ(inv.upos.names(), (std::vector<std::string>{"<unk>", "NOUN", "VERB"}));
}
