#pragma once
// The explicit model registry (DESIGN.md §3, as CTranslate2's register_model list): families are
// listed once in registry.cpp; named architectures are option presets of a family (fairseq style),
// so a paper variant is a few lines of defaults, never a code fork.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "trainer/models/seq2seq_model.h"

namespace synmt {

struct ModelFamily {
  std::string name;
  std::function<std::shared_ptr<Seq2SeqModel>(const nlohmann::json& options)> create;
  // options with every default filled in (validates keys and types)
  std::function<nlohmann::json(const nlohmann::json& options)> complete;
};

struct Architecture {
  std::string name, family;
  nlohmann::json defaults;  // options of the family
};

const std::vector<ModelFamily>& model_families();
const std::vector<Architecture>& architectures();

// Resolves {"arch": NAME, "options": {...}} (or {"family": NAME, "options": {...}}) into
// {"family": F, "options": family defaults <- architecture defaults <- options}, every option
// present. Unknown names and keys are ConfigErrors.
nlohmann::json resolve_model_config(const nlohmann::json& model_section);
std::shared_ptr<Seq2SeqModel> create_model(const nlohmann::json& resolved);

}  // namespace synmt
