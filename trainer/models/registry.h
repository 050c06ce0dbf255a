#pragma once
// The explicit model registry (as CTranslate2's register_model list): families are listed once in
// models/families.cpp, one line each; each family's directory defines its ModelFamily (constructor,
// option completion, presets). A named architecture is an option preset of a family (fairseq
// style), so a paper variant is a few lines of defaults, never a code fork.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "trainer/models/seq2seq_model.h"

namespace synmt {

class Vocab;

// Fills the model options that only the training data can give: every family's vocabulary sizes
// (the default); a family that reads more of the data adds its own (SA-NMT: the punctuation ids
// its parser may not attach to; LGP: the source words for its character n-grams). synmt-train
// calls the family's hook before building the model.
using DataOptionsHook = std::function<void(nlohmann::json& options, const Vocab& src_vocab, const Vocab& tgt_vocab)>;
void fill_vocabulary_sizes(nlohmann::json& options, const Vocab& src_vocab, const Vocab& tgt_vocab);

struct Architecture {
  std::string name, family;
  nlohmann::json defaults;  // options of the family
  std::string description;  // one line for --list-archs
};

struct ModelFamily {
  std::string name;
  std::function<std::shared_ptr<Seq2SeqModel>(const nlohmann::json& options)> create;
  // options with every default filled in (validates keys and types)
  std::function<nlohmann::json(const nlohmann::json& options)> complete;
  std::vector<Architecture> presets;
  // Options that shrink any preset of the family to a few thousand parameters: the conformance
  // suite runs every preset with these on top.
  nlohmann::json tiny = nlohmann::json::object();
  DataOptionsHook complete_from_data = fill_vocabulary_sizes;
};

// A family from its options struct (from_json / to_json) and model class; its name is the model's
// kFamily, which the model's describe() writes into checkpoints too.
template <class Model, class Options>
ModelFamily make_family(std::vector<Architecture> presets, nlohmann::json tiny) {
  ModelFamily f;
  f.name = Model::kFamily;
  f.create = [](const nlohmann::json& o) -> std::shared_ptr<Seq2SeqModel> { return std::make_shared<Model>(Options::from_json(o)); };
  f.complete = [](const nlohmann::json& o) { return Options::from_json(o).to_json(); };
  for (auto& p : presets) p.family = f.name;
  f.presets = std::move(presets);
  f.tiny = std::move(tiny);
  return f;
}

const std::vector<ModelFamily>& model_families();  // models/families.cpp: the registered list
const std::vector<Architecture>& architectures();  // every family's presets, in registry order
const ModelFamily& model_family(const std::string& name);

// Resolves {"arch": NAME, "options": {...}} (or {"family": NAME, "options": {...}}) into
// {"family": F, "options": family defaults <- architecture defaults <- options}, every option
// present. Unknown names and keys are ConfigErrors.
nlohmann::json resolve_model_config(const nlohmann::json& model_section);
std::shared_ptr<Seq2SeqModel> create_model(const nlohmann::json& resolved);

}  // namespace synmt
