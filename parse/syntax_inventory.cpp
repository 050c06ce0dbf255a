#include "parse/syntax_inventory.h"

#include <algorithm>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/line_reader.h"
#include "core/sha256.h"
#include "parse/parse_cache.h"

namespace synmt::parse {
namespace {

std::string file_text(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& n : names) text += n + "\n";
  return text;
}

bool has_space(const std::string& s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; });
}

// Names used at least once in `ids` (a parse cache's per-word ids into `names`).
std::vector<std::string> used_names(const std::vector<int32_t>& ids, const std::vector<std::string>& names) {
  std::vector<char> used(names.size(), 0);
  for (int32_t id : ids)
    if (id >= 0 && static_cast<std::size_t>(id) < names.size()) used[static_cast<std::size_t>(id)] = 1;
  std::vector<std::string> out;
  for (std::size_t k = 0; k < names.size(); ++k)
    if (used[k]) out.push_back(names[k]);
  return out;
}

}  // namespace

void Inventory::set_names(std::vector<std::string> names) {
  names_ = std::move(names);
  index_.clear();
  for (std::size_t k = 0; k < names_.size(); ++k) index_.emplace(names_[k], static_cast<int32_t>(k));
  hash_ = sha256_hex(file_text(names_));
}

Inventory Inventory::from_names(const std::vector<std::string>& seen) {
  std::vector<std::string> sorted;
  for (const auto& n : seen) {
    if (n.empty() || has_space(n)) throw std::invalid_argument("inventory name '" + n + "' is empty or contains white space");
    if (n != kUnknownName) sorted.push_back(n);
  }
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  sorted.insert(sorted.begin(), kUnknownName);
  Inventory inv;
  inv.set_names(std::move(sorted));
  return inv;
}

Inventory Inventory::load(const std::string& path) {
  const auto lines = read_lines(path);
  if (lines.empty()) throw InputError(path, 0, "empty inventory (line 1 must be <unk>)");
  std::unordered_map<std::string, std::size_t> first_line;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const std::string& n = lines[k];
    if (k == 0 && n != kUnknownName) throw InputError(path, 1, "line 1 of an inventory must be <unk>, found '" + n + "'");
    if (n.empty()) throw InputError(path, k + 1, "empty name in the inventory");
    if (has_space(n)) throw InputError(path, k + 1, "name '" + n + "' contains white space");
    auto [it, added] = first_line.emplace(n, k + 1);
    if (!added) throw InputError(path, k + 1, "'" + n + "' is listed twice (first on line " + std::to_string(it->second) + ")");
  }
  Inventory inv;
  inv.set_names(lines);
  inv.hash_ = sha256_file(path);  // the file as stored (a BOM or CRLF would be in it)
  return inv;
}

void Inventory::save(const std::string& path) const {
  AtomicFile out(path);
  out.write(file_text(names_));
  out.commit();
}

int32_t Inventory::id(const std::string& name) const {
  auto it = index_.find(name);
  return it == index_.end() ? 0 : it->second;
}

SyntaxInventories build_inventories(const ParsedCorpus& train) {
  return {Inventory::from_names(used_names(train.labels, train.label_names)),
          Inventory::from_names(used_names(train.upos, train.upos_names))};
}

}  // namespace synmt::parse
