// Checkpoints and training states as synmt-translate / --resume / averaging read them: LibTorch's
// archive reader over a damaged file, then synmt's format, config and parameter checks. Seeds are
// real (tiny) checkpoints; mutations of them must end in a clear error, never a crash.
//
// Each input is read twice. As it is, the seal (core/sealed_zip.h) stops nearly every mutation
// before LibTorch sees it, so that pass fuzzes the seal check. The second pass takes the input's
// own seal off and seals the mutated bytes anew, as a writer would have (fuzz_parse_cache_h5 writes
// valid checksums the same way): LibTorch's reader and synmt's checks behind it are what is fuzzed
// there. Inputs that no longer end in a zip end record cannot be sealed and get the first pass only.
//
// Training states (--resume) are read by load_training_state too, into a model and optimiser built
// from the state's own stored configuration (so that the comparison with the run's configuration
// passes and the parameters, optimiser moments, RNG table and counters are what is read), when
// that configuration is a small rnn_attention model: fuzzed sizes must not build large models.
#include <c10/util/Exception.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "core/sealed_zip.h"
#include "trainer/archive_io.h"
#include "trainer/models/registry.h"
#include "trainer/train/trainer.h"
#include "tests/fuzz/fuzz_util.h"
#include "trainer/models/checkpoint.h"
#include "trainer/train/training_state.h"

namespace {

// The bytes sealed as a writer seals them; nullopt when they do not end like a zip archive.
std::optional<std::string> resealed(const uint8_t* data, std::size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  synmt::unseal_zip(bytes);  // an existing seal is cut; bytes without one are sealed as they are
  try {
    synmt::seal_zip(bytes);
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
  return bytes;
}

// Reads `path` as --resume does, when its stored configuration is a small rnn_attention model.
void resume_from(const std::string& path) {
  using namespace synmt;
  std::string stored;
  nlohmann::json config, model;
  try {  // what training_state_matches already read under expect_clear_errors: its errors are covered
    torch::serialize::InputArchive archive;
    load_archive(archive, path, torch::Device(torch::kCPU), "training state");
    c10::IValue value;
    if (!archive.try_read("config", value) || !value.isString()) return;
    stored = value.toStringRef();
    config = nlohmann::json::parse(stored);
    model = resolve_model_config(config.at("model"));
    if (model.at("family") != "rnn_attention") return;
    for (const auto& [key, option] : model.at("options").items())
      if (option.is_number_integer() && option.get<int64_t>() > 64) return;
  } catch (const std::exception&) {
    return;
  }
  fuzz::expect_clear_errors([&] {
    auto net = create_model(model);
    auto optimizer = make_optimizer(*net, TrainOptions::from_json(config.value("train", nlohmann::json::object())));
    load_training_state(path, *net, *optimizer, stored, 0, 1);
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace synmt;
  const std::string path = fuzz::write_input("model.pt", data, size);
  fuzz::expect_clear_errors([&] { load_checkpoint(path); });
  fuzz::expect_clear_errors([&] { training_state_matches(path, "{}"); });
  resume_from(path);
  if (auto sealed = resealed(data, size)) {
    const std::string sealed_path =
        fuzz::write_input("sealed.pt", reinterpret_cast<const uint8_t*>(sealed->data()), sealed->size());
    fuzz::expect_clear_errors([&] { load_checkpoint(sealed_path); });
    fuzz::expect_clear_errors([&] { training_state_matches(sealed_path, "{}"); });
    resume_from(sealed_path);
  }
  return 0;
}
