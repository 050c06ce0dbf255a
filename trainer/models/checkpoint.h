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
LoadedModel load_checkpoint(const std::string& path);

// Writes the element-wise mean of the parameters of `inputs` (checkpoints of one model: same
// family and options, else an InputError) with the config of the last input.
void average_checkpoints(const std::vector<std::string>& inputs, const std::string& output);

}  // namespace synmt
