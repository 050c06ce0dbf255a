#pragma once
// Inventory sizes that reach the model options the way vocabulary sizes do: a family whose options
// have "src_labels" / "src_upos" gets the sizes of the dataset's label / UPOS inventories. Training
// and validation data must share one inventory (ids mean the same label in both).
#include <nlohmann/json.hpp>

#include <string>

#include "preprocess/dataset_file.h"

namespace synmt {

// model: {"family", "options"} (resolved); fills options.src_labels / src_upos when present.
void fill_syntax_sizes(nlohmann::json& model, const ParallelData& train, const ParallelData& valid, const std::string& train_path,
                       const std::string& valid_path);

}  // namespace synmt
