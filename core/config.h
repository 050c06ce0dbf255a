#pragma once
// Typed configuration from JSON: presets are merged with experiment files and `--set key=value`
// overrides, and every options struct reads its fields through JsonFields, which turns any key
// it did not consume into an error (a typo must never silently fall back to a default).
#include <nlohmann/json.hpp>

#include <array>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/error.h"

namespace synmt {

using Json = nlohmann::json;

Json load_json_file(const std::string& path);
// Recursively overlays `overlay` on `base`: objects merge key by key; lists of objects that each
// carry a distinct "kind" (a model's score_modifiers, embedding_inputs) merge by kind, the overlay's
// entry over the base's entry of the same kind, a new kind appended, so that a config changes one
// field of a preset's modifier without restating it; everything else (an empty list too, or a list
// where a kind repeats) replaces.
void merge_json(Json& base, const Json& overlay);
// Applies "a.b.c=value". The key must exist already (unknown keys are errors); the value is parsed
// as JSON when it parses ("3", "true", "[1,2]") and taken as a string otherwise.
void apply_override(Json& config, const std::string& assignment);
// An override's value as apply_override reads it: JSON when it parses, else the text as a string.
Json override_value(const std::string& text);

// Option values from a closed set are enums whose names are listed once, in a specialisation
//   template <> struct EnumNames<Optimizer> {
//     static constexpr std::array<std::pair<Optimizer, const char*>, 2> list{{{Optimizer::kAdam, "adam"}, ...}};
//   };
// JSON holds the names; reading a name outside the list is a ConfigError that lists them.
template <class E>
struct EnumNames;

template <class E>
const char* enum_name(E value) {
  for (const auto& [v, name] : EnumNames<E>::list)
    if (v == value) return name;
  return "?";
}

template <class E>
std::string enum_choices() {
  std::string out;
  for (const auto& [v, name] : EnumNames<E>::list) out += (out.empty() ? "" : " | ") + std::string(name);
  return out;
}

template <class E>
E enum_from_name(const std::string& name, const std::string& where) {
  for (const auto& [v, n] : EnumNames<E>::list)
    if (name == n) return v;
  throw ConfigError(where + ": '" + name + "' is none of " + enum_choices<E>());
}

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
    if constexpr (std::is_enum_v<T>) {
      if (!object_.at(key).is_string())
        throw ConfigError(context_ + ": key '" + key + "' has the wrong type: expected one of " + enum_choices<T>());
      field = enum_from_name<T>(object_.at(key).template get<std::string>(), context_ + "." + key);
    } else {
      try {
        field = object_.at(key).get<T>();
      } catch (const nlohmann::json::exception& e) {
        throw ConfigError(context_ + ": key '" + key + "' has the wrong type: " + e.what());
      }
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
  Options::fields(o, [&j](const char* key, const auto& field) {
    if constexpr (std::is_enum_v<std::decay_t<decltype(field)>>) j[key] = enum_name(field);
    else j[key] = field;
  });
  return j;
}

}  // namespace synmt
