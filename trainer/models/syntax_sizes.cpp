#include "trainer/models/syntax_sizes.h"

#include "core/error.h"

namespace synmt {

void fill_syntax_sizes(nlohmann::json& model, const ParallelData& train, const ParallelData& valid, const std::string& train_path,
                       const std::string& valid_path) {
  auto& options = model["options"];
  if (train.has_source_syntax() && valid.has_source_syntax() && train.src_label_names != valid.src_label_names)
    throw InputError(valid_path, 0, "its dependency-label inventory differs from the one of " + train_path +
                                        " (label ids would mean different labels): binarise both with the pair's inventory");
  if (options.contains("src_labels")) options["src_labels"] = static_cast<int64_t>(train.src_label_names.size());
}

}  // namespace synmt
