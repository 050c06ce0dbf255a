#pragma once
// The full state of a training run, saved every `checkpoint_interval` updates and on SIGTERM /
// SIGUSR1 so that `synmt-train --resume` continues exactly where the run stopped: parameters,
// optimiser moments, LibTorch's RNG (dropout), the position in the epoch's batch plan, schedule
// and counters. On one process the resumed run reproduces the uninterrupted one bit for bit.
#include <torch/optim/optimizer.h>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "trainer/models/seq2seq_model.h"
#include "trainer/loop/training_cursor.h"

namespace synmt {

inline constexpr const char* kTrainingStateFormat = "synmt-training-state-2";

// The sessions as summary.json lists them: [{commit, hardware, from_step, ranks}, ...].
nlohmann::json sessions_to_json(const std::vector<TrainingSession>& sessions);

// rank_rng_states: (ranks, state bytes) uint8, every rank's CPU generator state (gathered by the
// caller), so that a multi-rank run resumes with each rank's own dropout stream.
void save_training_state(const std::string& path, Seq2SeqModel& model, torch::optim::Optimizer& optimizer,
                         const TrainingCursor& cursor, const std::string& config_json, const torch::Tensor& rank_rng_states);
// True when `path` holds a training state of this format and this resolved config; false for a
// state of another format or config, the digests of the training and validation data (`data`)
// included, so that a resume onto other data starts afresh (a state saved before configs carried
// them is compared without them). Settings that change how a run executes but not what it
// computes (train.threads, train.comm_timeout, train.log_interval; also max_epochs, and model options
// missing from a stored config compare as their defaults) are left out of the comparison:
// a job requeued onto a node with another core count must resume, not start afresh. A truncated or damaged file is an InputError (a run must
// never restart from scratch because its state could not be read).
bool training_state_matches(const std::string& path, const std::string& config_json);
// Restores parameters, optimiser and this rank's RNG in place; refuses another format, another
// config (compared as above), or a state saved by another number of ranks.
TrainingCursor load_training_state(const std::string& path, Seq2SeqModel& model, torch::optim::Optimizer& optimizer,
                                   const std::string& config_json, int rank, int ranks);

}  // namespace synmt
