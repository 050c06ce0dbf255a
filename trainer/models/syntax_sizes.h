#pragma once
// Inventory sizes that reach the model options the way vocabulary sizes do: a family whose options
// have "src_labels" / "src_upos" gets the sizes of the dataset's label / UPOS inventories. Training
// and validation data must share one inventory (ids mean the same label in both).
#include <nlohmann/json.hpp>

#include <string>

#include "preprocess/dataset_file.h"

namespace synmt {

// model: {"family", "options"} (resolved); fills options.src_labels / src_upos when present.
// Returns the inventories' identities {"src_labels_sha256", "src_upos_sha256"} (empty strings
// without syntax) for the checkpoint, so that decoding data can be checked against them.
nlohmann::json fill_syntax_sizes(nlohmann::json& model, const ParallelData& train, const ParallelData& valid,
                                 const std::string& train_path, const std::string& valid_path);

// Refuses `data` (read from `path`) when its inventories are not the ones in `identities`
// (what fill_syntax_sizes returned, stored in the checkpoint's "vocab" section).
void check_syntax_inventories(const nlohmann::json& identities, const ParallelData& data, const std::string& path);

}  // namespace synmt
