#include "trainer/train/training_state.h"

#include <ATen/CPUGeneratorImpl.h>
#include <nlohmann/json.hpp>
#include <torch/serialize.h>

#include <cmath>
#include <limits>

#include "core/error.h"
#include "trainer/archive_io.h"
#include "trainer/device.h"
#include "trainer/models/registry.h"
#include "trainer/train/trainer.h"

namespace synmt {

nlohmann::json sessions_to_json(const std::vector<TrainingSession>& sessions) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& s : sessions)
    out.push_back({{"commit", s.commit}, {"hardware", s.hardware}, {"from_step", s.from_step}, {"ranks", s.ranks}});
  return out;
}

namespace {

std::vector<TrainingSession> sessions_from_json(const std::string& text, const std::string& path) {
  const auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_array()) throw InputError(path, 0, "a damaged training state (its sessions are not a JSON array)");
  std::vector<TrainingSession> out;
  try {
    for (const auto& s : j)
      out.push_back({s.at("commit").get<std::string>(), s.at("hardware").get<std::string>(),
                     s.at("from_step").get<int64_t>(), s.at("ranks").get<int>()});
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, 0, std::string("a damaged training state (its sessions: ") + e.what() + ")");
  }
  return out;
}

// The resolved config without the settings that only say how to execute the run (threads, the
// collectives' deadline, how often to log): two configs that agree on the rest train the same model.
nlohmann::json what_is_computed(const std::string& config_json) {
  nlohmann::json j = nlohmann::json::parse(config_json, nullptr, /*allow_exceptions=*/false);
  // threads, comm_timeout and log_interval say how to run, not what to compute. max_epochs only
  // bounds the epoch loop, and a run that reaches it saves its state for the next epoch: resumed
  // with a higher cap, it goes on exactly as an uninterrupted run with that cap would (a budget
  // extended without retraining what was trained).
  if (j.is_object() && j.contains("train") && j["train"].is_object()) {
    // every train option filled in too (a state saved before an option existed, as below)
    try {
      j["train"] = TrainOptions::from_json(j["train"]).to_json();
    } catch (const std::exception&) {  // an option since removed: compared as written
    }
    for (const char* key : {"threads", "comm_timeout", "log_interval", "max_epochs"}) j["train"].erase(key);
  }
  // The model section with every option of today's family filled: a state saved before an option
  // existed lacks it, and its default (which reproduces the old computation) must not make the
  // state "another configuration", or a resume after an upgrade would silently start afresh.
  if (j.is_object() && j.contains("model")) {
    try {
      j["model"] = resolve_model_config(j["model"]);
    } catch (const std::exception&) {  // an unknown family or option: compared as written
    }
  }
  return j;
}

bool same_training(const std::string& stored_json, const std::string& config_json) {
  if (stored_json == config_json) return true;
  nlohmann::json stored = what_is_computed(stored_json), now = what_is_computed(config_json);
  // A state saved before configs carried the data's digests (`data`) cannot tell its data apart:
  // it is compared on the rest, as it was then (a resume after the upgrade goes on).
  if (stored.is_object() && now.is_object() && !stored.contains("data")) now.erase("data");
  return stored == now;
}

}  // namespace

void save_training_state(const std::string& path, Seq2SeqModel& model, torch::optim::Optimizer& optimizer,
                         const TrainingCursor& c, const std::string& config_json, const torch::Tensor& rank_rng_states) {
  torch::serialize::OutputArchive archive, model_part, optim_part;
  model.save(model_part);
  optimizer.save(optim_part);
  archive.write("model", model_part);
  archive.write("optimizer", optim_part);
  archive.write("rng", rank_rng_states);
  archive.write("format", c10::IValue(std::string(kTrainingStateFormat)));
  archive.write("config", c10::IValue(config_json));
  archive.write("ints", torch::tensor({static_cast<int64_t>(c.epoch), c.batch_in_epoch, c.steps,
                                       static_cast<int64_t>(c.halvings), static_cast<int64_t>(c.best_epoch), c.total_tokens,
                                       static_cast<int64_t>(c.bad_validations), c.skipped_updates,
                                       static_cast<int64_t>(c.validations), c.last_validation_step},
                                      torch::kInt64));
  archive.write("reals", torch::tensor({c.lr, c.best, c.elapsed_seconds, c.best_ppl, c.best_bleu, c.previous}, torch::kFloat64));
  archive.write("sessions", c10::IValue(sessions_to_json(c.sessions).dump()));
  save_archive(archive, path);
}

bool training_state_matches(const std::string& path, const std::string& config_json) {
  torch::serialize::InputArchive archive;
  load_archive(archive, path, torch::Device(torch::kCPU), "training state");
  return read_archive_records(path, "training state", [&] {
    c10::IValue format, config;
    return archive.try_read("format", format) && format.isString() && format.toStringRef() == kTrainingStateFormat &&
           archive.try_read("config", config) && config.isString() && same_training(config.toStringRef(), config_json);
  });
}

TrainingCursor load_training_state(const std::string& path, Seq2SeqModel& model, torch::optim::Optimizer& optimizer,
                                   const std::string& config_json, int rank, int ranks) {
  torch::serialize::InputArchive archive, model_part, optim_part;
  load_archive(archive, path, module_device(model), "training state");  // optimizer moments next to the parameters
  return read_archive_records(path, "training state", [&] {
    c10::IValue format, config;
    if (!archive.try_read("format", format) || format.toStringRef() != kTrainingStateFormat)
      throw InputError(path, 0, std::string("training-state format is not ") + kTrainingStateFormat);
    if (!archive.try_read("config", config) || !same_training(config.toStringRef(), config_json))
      throw InputError(path, 0, "this training state belongs to another configuration; refusing to resume");
    archive.read("model", model_part);
    archive.read("optimizer", optim_part);
    model.load(model_part);
    optimizer.load(optim_part);
    torch::Tensor rng, ints, reals;
    archive.read("rng", rng);
    archive.read("ints", ints);
    archive.read("reals", reals);
    rng = rng.to(torch::kCPU);
    ints = ints.to(torch::kCPU);
    reals = reals.to(torch::kCPU);
    if (rng.dim() != 2 || rng.size(0) != ranks)
      throw InputError(path, 0, "this training state was saved by " + std::to_string(rng.dim() == 2 ? rng.size(0) : 1) +
                                    " rank(s); resume it with the same number of ranks (" + std::to_string(ranks) + " now)");
    at::Generator generator = at::detail::getDefaultCPUGenerator();  // a handle on the same generator
    const int64_t cpu_bytes = generator.get_state().numel();
    // clone(): a tensor of its own, starting at its storage's first byte. LibTorch 2.x's
    // CPUGeneratorImpl::set_state does not honour a view's storage offset (this rank's row of the
    // table): rank 1 crashed there or took rank 0's state.
    auto own = rng[rank].clone();
    generator.set_state(own.narrow(0, 0, cpu_bytes).clone());
    const torch::Device device = module_device(model);
    if (device.is_cuda() && own.numel() > cpu_bytes) {  // a GPU run: its generator's state follows
      at::Generator cuda = at::globalContext().defaultGenerator(device);
      cuda.set_state(own.narrow(0, cpu_bytes, own.numel() - cpu_bytes).clone());
    }
    if (ints.dim() != 1 || ints.numel() < 10 || reals.dim() != 1 || reals.numel() < 5)
      throw InputError(path, 0, "a damaged training state (its counters have the wrong shape)");
    TrainingCursor c;
    auto i = ints.accessor<int64_t, 1>();
    auto r = reals.accessor<double, 1>();
    // The seal proves the bytes are the ones written, not that a writer wrote sane ones: a negative
    // position would index the epoch's batch plan out of bounds, an epoch beyond int would wrap
    for (int k = 0; k < 10; ++k) {
      const int64_t least = k == 0 ? 1 : k == 9 ? -1 : 0;  // epochs count from 1; no validation yet is -1
      const bool is_int = k == 0 || k == 3 || k == 4 || k == 6 || k == 8;
      if (i[k] < least || (is_int && i[k] > std::numeric_limits<int>::max()))
        throw InputError(path, 0, "a damaged training state (counter " + std::to_string(k) + " is " + std::to_string(i[k]) + ")");
    }
    if (!std::isfinite(r[0]) || r[0] < 0)
      throw InputError(path, 0, "a damaged training state (learning rate " + std::to_string(r[0]) + ")");
    c.epoch = static_cast<int>(i[0]);
    c.batch_in_epoch = i[1];
    c.steps = i[2];
    c.halvings = static_cast<int>(i[3]);
    c.best_epoch = static_cast<int>(i[4]);
    c.total_tokens = i[5];
    c.bad_validations = static_cast<int>(i[6]);
    c.skipped_updates = i[7];
    c.validations = static_cast<int>(i[8]);
    c.last_validation_step = i[9];
    c.lr = r[0];
    c.best = r[1];
    c.elapsed_seconds = r[2];
    c.best_ppl = r[3];
    c.best_bleu = r[4];
    if (reals.numel() > 5) c.previous = r[5];  // states written before the halving rules lack it
    c10::IValue sessions;  // states written before sessions were recorded lack them
    if (archive.try_read("sessions", sessions)) {
      if (!sessions.isString()) throw InputError(path, 0, "a damaged training state (its sessions are not text)");
      c.sessions = sessions_from_json(sessions.toStringRef(), path);
    }
    return c;
  });
}

}  // namespace synmt
