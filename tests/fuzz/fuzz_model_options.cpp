// The model/train/parser sections of a training configuration through their typed option structs:
// the registry's resolution (family defaults <- preset <- options, every family's checks) and
// TrainOptions / ParserTrainOptions. Models are not built (their sizes are the user's to choose).
#include <string>

#include "core/config.h"
#include "tests/fuzz/fuzz_util.h"
#include "trainer/models/registry.h"
#include "trainer/parser/builtin_parser.h"
#include "trainer/train/trainer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace synmt;
  const std::string path = fuzz::write_input("train.json", data, size);
  Json config;
  try {
    config = load_json_file(path);
  } catch (const InputError&) {
    return 0;
  }
  if (!config.is_object()) return 0;
  if (config.contains("model")) fuzz::expect_clear_errors([&] { resolve_model_config(config["model"]); });
  if (config.contains("train")) fuzz::expect_clear_errors([&] { TrainOptions::from_json(config["train"]); });
  if (config.contains("parser")) fuzz::expect_clear_errors([&] { parser::ParserTrainOptions::from_json(config["parser"]); });
  return 0;
}
