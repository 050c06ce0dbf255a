// Configuration JSON (the files synmt-train / synmt-translate / synmt-parser-train read with -c):
// load it, overlay it on itself, and apply "key=value" overrides taken from its own keys, the
// way --set does. The option structs' own checks are fuzzed by fuzz_model_options (torch build).
#include <string>

#include "core/config.h"
#include "tests/fuzz/fuzz_util.h"

namespace {
void collect_overrides(const synmt::Json& j, const std::string& prefix, std::vector<std::string>& out) {
  if (!j.is_object() || out.size() > 16) return;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
    out.push_back(key + "=" + (it->is_string() ? it->get<std::string>() : it->dump()));
    collect_overrides(*it, key, out);
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace synmt;
  const std::string path = fuzz::write_input("config.json", data, size);
  fuzz::expect_clear_errors([&] {
    Json config = load_json_file(path);
    Json copy = config;
    merge_json(copy, config);
    std::vector<std::string> overrides;
    collect_overrides(config, "", overrides);
    for (const auto& o : overrides) apply_override(copy, o);
    apply_override(copy, std::string(reinterpret_cast<const char*>(data), size < 64 ? size : 64));
  });
  return 0;
}
