#pragma once
// Checkpoints hold the parameters and the fully resolved config (model family and options,
// vocabulary hashes, training options), so decoding needs nothing but the checkpoint and the
// vocabularies, and a checkpoint of another format or model is refused with a clear message.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "trainer/models/seq2seq_model.h"

namespace synmt {

inline constexpr const char* kCheckpointFormat = "synmt-checkpoint-1";

void save_checkpoint(const std::string& path, Seq2SeqModel& model, const nlohmann::json& config);

struct LoadedModel {
  std::shared_ptr<Seq2SeqModel> model;
  nlohmann::json config;
};
// `option_overrides` (an object) replaces model options of the stored config before the model is
// built, for options that change what a trained model computes at test time, not its parameters
// (e.g. the latent-graph models' test_graph probes); a key the model does not have or a value it
// refuses is a ConfigError naming the overrides (the user's error, not the checkpoint's), an
// override that changes the parameters' shapes an InputError. The returned config
// carries the overrides.
LoadedModel load_checkpoint(const std::string& path, const nlohmann::json& option_overrides = nlohmann::json::object());

// Writes the element-wise mean of the parameters of `inputs` (checkpoints of one model: same
// family and options, else an InputError) with the config of the last input.
void average_checkpoints(const std::vector<std::string>& inputs, const std::string& output);

}  // namespace synmt
