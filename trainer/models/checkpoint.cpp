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

LoadedModel load_checkpoint(const std::string& path, const nlohmann::json& option_overrides) {
  if (!option_overrides.is_object()) throw std::invalid_argument("load_checkpoint: option overrides must be a JSON object");
  torch::serialize::InputArchive archive;
  load_archive(archive, path, torch::Device(torch::kCPU), "checkpoint");  // a GPU run's tensors load on any machine
  return read_archive_records(path, "checkpoint", [&] {
    c10::IValue format, config_text;
    if (!archive.try_read("synmt_format", format) || !format.isString() || format.toStringRef() != kCheckpointFormat)
      throw InputError(path, 0, std::string("checkpoint format is not ") + kCheckpointFormat);
    if (!archive.try_read("synmt_config", config_text) || !config_text.isString())
      throw InputError(path, 0, "checkpoint has no config");
    LoadedModel loaded;
    loaded.config = nlohmann::json::parse(config_text.toStringRef());
    auto& options = loaded.config.at("model").at("options");
    for (const auto& [key, value] : option_overrides.items()) {
      if (!options.contains(key))
        throw ConfigError("model option override '" + key + "': not an option of the " +
                          loaded.config.at("model").value("family", std::string("?")) + " model in " + path);
      options[key] = value;
    }
    loaded.model = create_model(loaded.config.at("model"));
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
    loaded.model->eval();
    return loaded;
  });
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
