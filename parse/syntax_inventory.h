#pragma once
// The label and UPOS inventories of a language pair (issue #12): one name per line, id = line
// index (0-based), line 1 is always `<unk>` (id 0). Built once from the TRAINING split's parse
// cache and stored beside the vocabularies, so that a label has the same id in every split and in
// every checkpoint trained on the pair; a name a later split has and training had not maps to 0.
// Names are sorted by byte value (not by frequency): the same label set gives the same ids
// whatever the corpus size or parser, which keeps inventories of two pairs comparable.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace synmt::parse {

inline constexpr const char* kUnknownName = "<unk>";

class Inventory {
 public:
  // From names seen in training (any order, repeats allowed); `<unk>` is put first.
  static Inventory from_names(const std::vector<std::string>& seen);
  // Throws InputError naming path:line on a missing `<unk>` first line, an empty, duplicate or
  // whitespace-containing name.
  static Inventory load(const std::string& path);
  void save(const std::string& path) const;  // atomic

  int32_t id(const std::string& name) const;  // 0 (`<unk>`) for an unknown name
  bool contains(const std::string& name) const { return index_.count(name) != 0; }
  const std::vector<std::string>& names() const { return names_; }
  std::size_t size() const { return names_.size(); }
  // sha256 of the file's bytes (load) or of the bytes save() writes: identifies the inventory.
  const std::string& hash() const { return hash_; }

 private:
  void set_names(std::vector<std::string> names);
  std::vector<std::string> names_;
  std::unordered_map<std::string, int32_t> index_;
  std::string hash_;
};

struct ParsedCorpus;

struct SyntaxInventories {
  Inventory labels, upos;
};

// The pair's inventories from the training split's parse cache (names that occur in it).
SyntaxInventories build_inventories(const ParsedCorpus& train);

}  // namespace synmt::parse
