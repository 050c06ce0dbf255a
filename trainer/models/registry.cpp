#include "trainer/models/registry.h"

#include "core/config.h"
#include "preprocess/vocab.h"

namespace synmt {

const std::vector<Architecture>& architectures() {
  static const std::vector<Architecture> archs = [] {
    std::vector<Architecture> all;
    for (const auto& f : model_families()) all.insert(all.end(), f.presets.begin(), f.presets.end());
    return all;
  }();
  return archs;
}

const ModelFamily& model_family(const std::string& name) {
  for (const auto& f : model_families())
    if (f.name == name) return f;
  throw ConfigError("unknown model family '" + name + "'");
}

void fill_vocabulary_sizes(nlohmann::json& options, const Vocab& src_vocab, const Vocab& tgt_vocab) {
  options["src_vocab"] = src_vocab.size();
  options["tgt_vocab"] = tgt_vocab.size();
}

nlohmann::json resolve_model_config(const nlohmann::json& section) {
  std::string arch, family;
  nlohmann::json options = nlohmann::json::object();
  JsonFields f(section, "model");
  f.optional("arch", arch).optional("family", family).optional("options", options);
  f.finish();
  nlohmann::json resolved_options = nlohmann::json::object();
  if (!arch.empty()) {
    auto it = std::find_if(architectures().begin(), architectures().end(), [&](const Architecture& a) { return a.name == arch; });
    if (it == architectures().end()) throw ConfigError("model.arch: unknown architecture '" + arch + "'");
    if (!family.empty() && family != it->family)
      throw ConfigError("model.family '" + family + "' contradicts architecture '" + arch + "'");
    family = it->family;
    resolved_options = it->defaults;
  }
  if (family.empty()) throw ConfigError("model: set 'arch' or 'family'");
  merge_json(resolved_options, options);
  return {{"family", family}, {"options", model_family(family).complete(resolved_options)}};
}

std::shared_ptr<Seq2SeqModel> create_model(const nlohmann::json& resolved) {
  return model_family(resolved.at("family").get<std::string>()).create(resolved.at("options"));
}

}  // namespace synmt
