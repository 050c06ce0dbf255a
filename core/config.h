#pragma once
// Typed configuration from JSON: presets are merged with experiment files and `--set key=value`
// overrides, and every options struct reads its fields through JsonFields, which turns any key
// it did not consume into an error (a typo must never silently fall back to a default).
#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

#include "core/error.h"

namespace synmt {

using Json = nlohmann::json;

Json load_json_file(const std::string& path);
// Recursively overlays `overlay` on `base` (objects merge, everything else replaces).
void merge_json(Json& base, const Json& overlay);
// Applies "a.b.c=value". The key must exist already (unknown keys are errors); the value is parsed
// as JSON when it parses ("3", "true", "[1,2]") and taken as a string otherwise.
void apply_override(Json& config, const std::string& assignment);

class JsonFields {
 public:
  JsonFields(const Json& object, std::string context);

  template <class T>
  JsonFields& optional(const char* key, T& field) {
    used_.insert(key);
    if (object_.contains(key)) convert(key, field);
    return *this;
  }
  template <class T>
  JsonFields& required(const char* key, T& field) {
    used_.insert(key);
    if (!object_.contains(key)) throw ConfigError(context_ + ": missing required key '" + key + "'");
    convert(key, field);
    return *this;
  }
  // Throws ConfigError naming every key that no optional()/required() call asked for.
  void finish() const;

 private:
  template <class T>
  void convert(const char* key, T& field) {
    try {
      field = object_.at(key).get<T>();
    } catch (const nlohmann::json::exception& e) {
      throw ConfigError(context_ + ": key '" + key + "' has the wrong type: " + e.what());
    }
  }
  const Json& object_;
  std::string context_;
  std::set<std::string> used_;
};

// Typed option structs name each JSON key once, in a static member template that hands every
// field to a visitor:
//   template <class Self, class Visit> static void fields(Self& o, Visit&& v) {
//     v("embed_dim", o.embed_dim); v("dropout", o.dropout); ...
//   }
// and get both directions from that one list (unknown keys are errors, as with JsonFields).
template <class Options>
Options options_from_json(const Json& object, const std::string& context) {
  Options o;
  JsonFields f(object, context);
  Options::fields(o, [&f](const char* key, auto& field) { f.optional(key, field); });
  f.finish();
  return o;
}

template <class Options>
Json options_to_json(const Options& o) {
  Json j = Json::object();
  Options::fields(o, [&j](const char* key, const auto& field) { j[key] = field; });
  return j;
}

}  // namespace synmt
