#include "trainer/models/checkpoint.h"

#include <stdexcept>
#include <utility>
#include <vector>

#include <torch/serialize.h>

#include "core/error.h"
#include "trainer/archive_io.h"
#include "trainer/models/registry.h"

namespace synmt {

void save_checkpoint(const std::string& path, Seq2SeqModel& model, const nlohmann::json& config) {
  torch::serialize::OutputArchive archive;
  model.save(archive);
  archive.write("synmt_format", c10::IValue(std::string(kCheckpointFormat)));
  archive.write("synmt_config", c10::IValue(config.dump()));
  save_archive(archive, path);
}

namespace {

// The stored configuration, as the checkpoint wrote it.
nlohmann::json read_stored_config(torch::serialize::InputArchive& archive, const std::string& path) {
  return read_archive_records(path, "checkpoint", [&] {
    c10::IValue format, config_text;
    if (!archive.try_read("synmt_format", format) || !format.isString() || format.toStringRef() != kCheckpointFormat)
      throw InputError(path, 0, std::string("checkpoint format is not ") + kCheckpointFormat);
    if (!archive.try_read("synmt_config", config_text) || !config_text.isString())
      throw InputError(path, 0, "checkpoint has no config");
    return nlohmann::json::parse(config_text.toStringRef());
  });
}

// The model the (overridden) configuration describes. Without overrides a configuration no model
// accepts is the stored one, reported as the checkpoint's (rethrow_archive_error's hint: a tool
// older than the build that wrote it); with overrides it is the user's, so it is reported as theirs,
// naming the overrides and the option keys the model has.
std::shared_ptr<Seq2SeqModel> build_model(nlohmann::json& config, const nlohmann::json& option_overrides,
                                           const std::string& path) {
  if (option_overrides.empty()) return read_archive_records(path, "checkpoint", [&] { return create_model(config.at("model")); });
  auto& options = read_archive_records(path, "checkpoint", [&]() -> nlohmann::json& { return config.at("model").at("options"); });
  const std::string family = config.at("model").value("family", std::string("?"));
  for (const auto& [key, value] : option_overrides.items()) {
    if (!options.contains(key)) {
      std::string known;
      for (const auto& item : options.items()) known += (known.empty() ? "" : ", ") + item.key();
      throw ConfigError("model option override '" + key + "': not an option of the " + family + " model in " + path +
                        " (its options: " + known + ")");
    }
    options[key] = value;
  }
  try {
    return create_model(config.at("model"));
  } catch (const ConfigError& e) {
    throw ConfigError("model option overrides " + option_overrides.dump() + " on " + path + ": " + e.what());
  }
}

}  // namespace

LoadedModel load_checkpoint(const std::string& path, const nlohmann::json& option_overrides) {
  if (!option_overrides.is_object()) throw std::invalid_argument("load_checkpoint: option overrides must be a JSON object");
  torch::serialize::InputArchive archive;
  load_archive(archive, path, torch::Device(torch::kCPU), "checkpoint");  // a GPU run's tensors load on any machine
  LoadedModel loaded;
  loaded.config = read_stored_config(archive, path);
  loaded.model = build_model(loaded.config, option_overrides, path);
  read_archive_records(path, "checkpoint", [&] {
    const std::string mismatch = option_overrides.empty() ? "parameters do not match the model described in the checkpoint"
                                                          : "parameters do not match the model described in the checkpoint "
                                                            "with the option overrides " + option_overrides.dump();
    // LibTorch's Module::load adopts each stored tensor as it is (Tensor::set_), whatever its shape:
    // the shapes the described model expects are compared after loading
    std::vector<std::pair<std::string, std::vector<int64_t>>> expected;
    for (const auto& item : loaded.model->named_parameters()) expected.emplace_back(item.key(), item.value().sizes().vec());
    for (const auto& item : loaded.model->named_buffers()) expected.emplace_back(item.key(), item.value().sizes().vec());
    try {
      loaded.model->load(archive);
    } catch (const c10::Error& e) {
      throw InputError(path, 0, mismatch);
    }
    const auto params = loaded.model->named_parameters();
    const auto buffers = loaded.model->named_buffers();
    for (const auto& [name, sizes] : expected) {
      const auto* stored = params.find(name);
      if (!stored) stored = buffers.find(name);
      if (stored && stored->sizes().vec() != sizes)
        throw InputError(path, 0, mismatch + " ('" + name + "' is stored as " + c10::str(stored->sizes()) + ", the model has " +
                                      c10::str(c10::IntArrayRef(sizes)) + ")");
    }
  });
  loaded.model->eval();
  return loaded;
}

void average_checkpoints(const std::vector<std::string>& inputs, const std::string& output) {
  if (inputs.empty()) throw InputError(output, 0, "no checkpoints to average");
  torch::NoGradGuard no_grad;
  LoadedModel sum = load_checkpoint(inputs.front());
  auto params = sum.model->named_parameters();
  for (std::size_t k = 1; k < inputs.size(); ++k) {
    LoadedModel next = load_checkpoint(inputs[k]);
    if (next.config.at("model") != sum.config.at("model"))
      throw InputError(inputs[k], 0, "is a checkpoint of another model than " + inputs.front() + "; cannot average them");
    auto other = next.model->named_parameters();
    for (auto& p : params) p.value().add_(other[p.key()]);
    sum.config = next.config;
  }
  for (auto& p : params) p.value().div_(static_cast<double>(inputs.size()));
  save_checkpoint(output, *sum.model, sum.config);
}

}  // namespace synmt
