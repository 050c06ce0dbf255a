#include "core/config.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <string>

namespace synmt {

Json load_json_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "cannot open");
  try {
    return Json::parse(in);
  } catch (const nlohmann::json::exception& e) {  // parse errors, and numbers too large for a double (out_of_range)
    throw InputError(path, 0, std::string("invalid JSON: ") + e.what());
  }
}

namespace {
// Whether `list` is a non-empty array of objects, each with a string "kind" that no other has.
bool kinds_unique(const Json& list) {
  if (!list.is_array() || list.empty()) return false;
  std::set<std::string> seen;
  for (const auto& item : list)
    if (!item.is_object() || !item.contains("kind") || !item["kind"].is_string() || !seen.insert(item["kind"].get<std::string>()).second)
      return false;
  return true;
}
}  // namespace

void merge_json(Json& base, const Json& overlay) {
  if (kinds_unique(base) && kinds_unique(overlay)) {
    for (const auto& item : overlay) {
      auto same = std::find_if(base.begin(), base.end(), [&](const Json& b) { return b["kind"] == item["kind"]; });
      if (same != base.end())
        merge_json(*same, item);
      else
        base.push_back(item);
    }
    return;
  }
  if (!base.is_object() || !overlay.is_object()) {
    base = overlay;
    return;
  }
  for (auto it = overlay.begin(); it != overlay.end(); ++it) {
    if (base.contains(it.key()))
      merge_json(base[it.key()], it.value());
    else
      base[it.key()] = it.value();
  }
}

void apply_override(Json& config, const std::string& assignment) {
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set expects key=value, got '" + assignment + "'");
  std::string key = assignment.substr(0, eq), text = assignment.substr(eq + 1);
  Json* node = &config;
  std::size_t start = 0;
  for (;;) {
    auto dot = key.find('.', start);
    std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!node->is_object() || !node->contains(part))
      throw ConfigError("--set " + key + ": unknown key '" + part + "'");
    node = &(*node)[part];
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  *node = override_value(text);
}

Json override_value(const std::string& text) {
  Json value = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  return value.is_discarded() ? Json(text) : value;
}

JsonFields::JsonFields(const Json& object, std::string context) : object_(object), context_(std::move(context)) {
  if (!object_.is_object()) throw ConfigError(context_ + ": expected a JSON object");
}

void JsonFields::finish() const {
  std::string unknown;
  for (auto it = object_.begin(); it != object_.end(); ++it)
    if (!used_.count(it.key())) unknown += (unknown.empty() ? "'" : ", '") + it.key() + "'";
  if (!unknown.empty()) throw ConfigError(context_ + ": unknown key(s) " + unknown);
}

}  // namespace synmt
