// synmt-train: train a model from the registry on binarised HDF5 datasets.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include <torch/version.h>

#include "core/atomic_file.h"
#include "core/config.h"
#include "core/log.h"
#include "core/sha256.h"
#include "core/tool_main.h"
#include "preprocess/dataset_digest.h"
#include "preprocess/dataset_file.h"
#include "preprocess/vocab.h"
#include "trainer/models/registry.h"
#include "trainer/models/syntax_sizes.h"
#include "trainer/comm/launcher.h"
#include "trainer/device.h"
#include "trainer/runtime.h"
#include "trainer/train/trainer.h"
#include "trainer/train/training_state.h"

namespace {

// --check-config: builds the model on the CPU with placeholder sizes for what the data would give
// (vocabularies, label and UPOS inventories), so that every option the family checks at
// construction is checked; a typo in a paper-scale config fails the dry run, not the cluster job.
int check_model_config(synmt::Json model) {
  auto& options = model["options"];
  options["src_vocab"] = 64;
  options["tgt_vocab"] = 64;
  for (const char* key : {"src_labels", "src_upos"})
    if (options.contains(key)) options[key] = 8;
  auto net = synmt::create_model(model);
  int64_t params = 0;
  for (const auto& p : net->parameters()) params += p.numel();
  std::printf("config ok: family %s, %lld parameters with 64-word vocabularies\n", model["family"].get<std::string>().c_str(),
              static_cast<long long>(params));
  return 0;
}

struct TrainArgs {
  std::string config_path, train_path, valid_path, src_vocab, tgt_vocab, out_dir;
  std::string extends;  // the config's "extends": a run directory whose training this run carries on
  std::vector<std::string> overrides;
  std::string dist = "auto", dump_params;
  bool resume = false, tiny = false, check_config = false, print_config = false;
};

void declare(CLI::App& app, TrainArgs& a) {
  app.description("Train an NMT model. Config: {\"model\": {\"arch\"|\"family\", \"options\"}, \"train\": {...}, "
                  "\"extends\": RUN_DIR (optional: carry on that run's training under a higher max_epochs)}.");
  app.add_option("-c,--config", a.config_path, "JSON config")->required();
  app.add_option("--set", a.overrides, "override a config key: a.b=value (repeatable)");
  app.add_option("--train", a.train_path, "training dataset (HDF5)");
  app.add_option("--valid", a.valid_path, "validation dataset (HDF5)");
  app.add_option("--src-vocab", a.src_vocab);
  app.add_option("--tgt-vocab", a.tgt_vocab);
  app.add_option("-o,--out-dir", a.out_dir, "checkpoints, metrics.jsonl, summary.json");
  app.add_option("--dist", a.dist,
                 "auto | single | mpi | nccl (auto: with > 1 rank from mpirun/srun, NCCL for a CUDA run "
                 "where built, else MPI)")
      ->capture_default_str();
  app.add_flag("--check-config", a.check_config,
               "validate the config (train keys, model options, a model built with placeholder vocabulary "
               "sizes) and exit: the paper-scale dry runs check every system this way, without data");
  app.add_flag("--print-config", a.print_config,
               "print the fully resolved config (the preset's options under the config's, every default filled, "
               "--set applied) as JSON and exit, without data");
  app.add_flag("--resume", a.resume, "continue from OUT_DIR/state.pt when it exists (SLURM requeue)");
  app.add_option("--dump-params", a.dump_params, "write the final parameters as raw float32 (tests)");
  app.add_flag("--tiny", a.tiny,
               "shrink the architecture with its family's tiny options (the conformance tests' sizes; smoke runs); "
               "the config's own model options still apply on top");
  app.add_flag_callback(
      "--list-archs",
      []() {
        for (const auto& arch : synmt::architectures())
          std::printf("%-28s %-16s %s\n", arch.name.c_str(), arch.family.c_str(), arch.description.c_str());
        throw CLI::Success();
      },
      "print every architecture preset (name, family, description), one a line, and exit");
}

// The config file with every default filled (model: preset <- [family tiny options] <- the file's
// options; train: TrainOptions' defaults), then --set applied: an override may name any valid key
// but no unknown one.
synmt::Json resolved_config(TrainArgs& a) {
  synmt::Json file = synmt::load_json_file(a.config_path);
  synmt::Json model_section = synmt::Json::object(), train_section = synmt::Json::object();
  synmt::JsonFields top(file, a.config_path);
  top.required("model", model_section).optional("train", train_section).optional("extends", a.extends);
  top.finish();
  if (a.tiny) {
    const auto resolved = synmt::resolve_model_config(model_section);
    auto options = synmt::model_family(resolved["family"].get<std::string>()).tiny;
    if (model_section.contains("options")) synmt::merge_json(options, model_section["options"]);
    model_section["options"] = options;
  }
  synmt::Json config = {{"model", synmt::resolve_model_config(model_section)},
                        {"train", synmt::TrainOptions::from_json(train_section).to_json()}};
  for (const auto& o : a.overrides) synmt::apply_override(config, o);
  return config;
}

void dump_parameters(const std::string& path, synmt::Seq2SeqModel& net) {
  synmt::AtomicFile out(path);
  for (const auto& p : net.parameters()) {
    auto c = p.detach().to(torch::kCPU, torch::kFloat32).contiguous();
    out.write(std::string_view(reinterpret_cast<const char*>(c.data_ptr<float>()), static_cast<std::size_t>(c.numel()) * 4));
  }
  out.commit();
}

// "extends": RUN_DIR. This run carries on RUN_DIR's training (a longer budget without training its
// epochs again): its training state, kept best weights and metrics are copied into OUT_DIR, which
// then resumes from them. Only a state of the same computation is taken (train.max_epochs may be
// higher; the trainer's own identity check), and a mismatch is an error, not a fresh start. A state
// of OUT_DIR's own that is newer than RUN_DIR's (this extension, interrupted) is resumed instead;
// RUN_DIR trained again after the copy is copied anew. Returns true: the trainer is to resume.
bool seed_extension(const TrainArgs& a, const std::string& config_json, synmt::Communicator& comm) {
  namespace fs = std::filesystem;
  const fs::path from(a.extends), to(a.out_dir);
  const fs::path state = from / "state.pt", own = to / "state.pt";
  if (!fs::exists(state))
    throw synmt::InputError(a.config_path, 0, "\"extends\": " + state.string() + " does not exist (no training state to carry on)");
  const bool copy = !(fs::exists(own) && fs::last_write_time(own) >= fs::last_write_time(state));
  // every rank checks (and so fails alike) before the root copies
  if (copy && !synmt::training_state_matches(state.string(), config_json))
    throw synmt::InputError(state.string(), 0,
                            "is the training state of another computation than " + a.config_path +
                                " (only train.max_epochs, threads and logging may differ); refusing to extend it");
  if (copy && comm.is_root()) {
    fs::create_directories(to);
    for (const char* name : {"state.pt", "state.best.pt", "metrics.jsonl"})
      if (fs::exists(from / name)) fs::copy_file(from / name, to / name, fs::copy_options::overwrite_existing);
    fs::remove(to / "best.pt");  // put back from state.best.pt by the resume
    synmt::log_info("extending " + from.string() + ": its training state, best weights and metrics copied into " + to.string());
  }
  comm.barrier();
  return true;
}

// Builds the model for the data, trains it (train/trainer.h) and reports.
int train(const TrainArgs& a, const synmt::Json& config, const synmt::TrainOptions& train_options) {
  auto src_vocab = synmt::Vocab::load(a.src_vocab);
  auto tgt_vocab = synmt::Vocab::load(a.tgt_vocab);
  synmt::Json model = config["model"];
  synmt::model_family(model["family"].get<std::string>()).complete_from_data(model["options"], src_vocab, tgt_vocab);
  const synmt::LauncherEnvironment launcher = synmt::launcher_environment();
  const torch::Device device = synmt::resolve_device(train_options.device, launcher.local_rank);
  auto comm = synmt::make_communicator(a.dist, device.is_cuda() ? device.index() : -1, train_options.comm_timeout);
  auto runtime = synmt::setup_runtime(train_options.threads, comm->size() > 1 ? launcher.local_size : 1);
  auto train = synmt::read_parallel_data(a.train_path, src_vocab.hash(), tgt_vocab.hash());
  auto valid = synmt::read_parallel_data(a.valid_path, src_vocab.hash(), tgt_vocab.hash());
  const auto inventories = synmt::fill_syntax_sizes(model, train, valid, a.train_path, a.valid_path);
  torch::manual_seed(train_options.seed);  // initialisation is part of a reproducible run
  auto net = synmt::create_model(model);  // validates every model option
  // pre-trained parts named in the options (LGP-NMT+'s parser); a resumed run has them in its
  // state already and overwrites them when the state is loaded
  net->load_pretrained();
  synmt::Json resolved = {{"model", model},
                          {"train", train_options.to_json()},
                          {"vocab", {{"src_sha256", src_vocab.hash()}, {"tgt_sha256", tgt_vocab.hash()}}}};
  resolved["vocab"].update(inventories);
  // What the run learns from and validates on: a training state of other data (the same corpus
  // parsed by a parser trained on another machine, say) is another run (training_state.h)
  resolved["data"] = {{"train_sha256", synmt::content_sha256(train)}, {"valid_sha256", synmt::content_sha256(valid)}};
  // and the pre-trained parameters it starts from (LGP-NMT+'s parser), by the bytes of their files
  for (const auto& file : net->pretrained_files()) resolved["data"]["pretrained_sha256"].push_back(synmt::sha256_file(file));
  std::filesystem::create_directories(a.out_dir);
  synmt::write_file_atomically(a.out_dir + "/config.json", resolved.dump(2) + "\n");
  int64_t params = 0;
  for (const auto& p : net->parameters()) params += p.numel();
  synmt::log_info("model " + model["family"].get<std::string>() + ": " + std::to_string(params) + " parameters; " +
                  std::to_string(train.size()) + " training pairs");
  std::string hardware = runtime.hardware;
  if (device.is_cuda()) {
    hardware = synmt::describe_device(device) + ", " + synmt::enum_name(train_options.precision) + ", LibTorch " TORCH_VERSION;
    synmt::log_info("device: " + hardware);
  }
  synmt::TrainResult r;
  try {
    const bool resume = a.extends.empty() ? a.resume : seed_extension(a, resolved.dump(), *comm);
    r = synmt::train_model(*net, resolved, train_options, train, valid, a.out_dir, hardware, *comm, resume, &tgt_vocab, device);
  } catch (const synmt::TrainingInterrupted& e) {
    return 128 + e.signal;
  }  // TrainingFailed and input errors: run_tool prints the message and exits 1
  if (!a.dump_params.empty() && comm->is_root()) dump_parameters(a.dump_params, *net);
  synmt::log_info("done: best valid ppl " + std::to_string(r.best_valid_ppl) + " (epoch " + std::to_string(r.best_epoch) +
                  "), " + std::to_string(r.seconds) + " s");
  return 0;
}

int run(TrainArgs& a) {
  const synmt::Json config = resolved_config(a);
  const auto train_options = synmt::TrainOptions::from_json(config["train"]);  // rejects a bad value first
  if (a.print_config) {
    std::printf("%s\n", config.dump(2).c_str());
    return 0;
  }
  if (a.check_config) return check_model_config(config["model"]);
  for (const auto* required : {&a.train_path, &a.valid_path, &a.src_vocab, &a.tgt_vocab, &a.out_dir})
    if (required->empty())
      throw std::invalid_argument("synmt-train needs --train, --valid, --src-vocab, --tgt-vocab and --out-dir "
                                  "(only --check-config and --print-config run without data)");
  return train(a, config, train_options);
}

}  // namespace

int main(int argc, char** argv) {
  TrainArgs a;
  return synmt::run_tool("synmt-train", argc, argv, [&](CLI::App& app) { declare(app, a); }, [&]() { return run(a); });
}
