#include "trainer/models/seq2seq_model.h"

#include "core/error.h"

namespace synmt {

const torch::Tensor& SourceInput::feature(const std::string& name, const std::string& who) const {
  auto it = features.find(name);
  if (it == features.end())
    throw ConfigError(who + " reads the source feature '" + name +
                      "', which this batch does not carry: binarise the pair with its parse (pair.parse) and decode "
                      "from the binarised split or a parse cache");
  return it->second;
}

void check_required_features(const Seq2SeqModel& model, const SourceInput& src, const std::string& where) {
  for (const auto& name : model.required_features())
    if (!src.has(name))
      throw ConfigError(where + ": the model reads the source feature '" + name +
                        "', which the input does not carry (binarise the pair with its parse: pair.parse; decode "
                        "with --data SPLIT.h5 or --src-parse)");
}

}  // namespace synmt
