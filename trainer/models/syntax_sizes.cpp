#include "trainer/models/syntax_sizes.h"

#include "core/error.h"

namespace synmt {

namespace {
std::string attribute(const ParallelData& d, const char* name) {
  auto it = d.attributes.find(name);
  return it == d.attributes.end() ? std::string() : it->second;
}
}  // namespace

nlohmann::json fill_syntax_sizes(nlohmann::json& model, const ParallelData& train, const ParallelData& valid,
                                 const std::string& train_path, const std::string& valid_path) {
  nlohmann::json identities = {{"src_labels_sha256", attribute(train, kSrcLabelInventoryAttr)},
                               {"src_upos_sha256", attribute(train, kSrcUposInventoryAttr)}};
  check_syntax_inventories(identities, valid, valid_path + " (against " + train_path + ")");
  auto& options = model["options"];
  if (options.contains("src_labels")) options["src_labels"] = static_cast<int64_t>(train.src_label_names.size());
  if (options.contains("src_upos")) options["src_upos"] = static_cast<int64_t>(train.src_upos_names.size());
  return identities;
}

void check_syntax_inventories(const nlohmann::json& identities, const ParallelData& data, const std::string& path) {
  for (const auto& [key, attr] : {std::pair{"src_labels_sha256", kSrcLabelInventoryAttr}, std::pair{"src_upos_sha256", kSrcUposInventoryAttr}}) {
    const std::string expected = identities.value(key, std::string());
    const std::string actual = attribute(data, attr);
    if (!expected.empty() && !actual.empty() && expected != actual)
      throw InputError(path, 0, std::string("was binarised with another ") + (std::string(key) == "src_labels_sha256" ? "label" : "UPOS") +
                                    " inventory (" + attr + " " + actual + ", expected " + expected +
                                    "): ids would mean different labels");
  }
}

}  // namespace synmt
