#pragma once
// Precompiled header for the torch targets: the narrow torch headers the trainer uses (never
// <torch/torch.h>), plus the heavy standard headers. Compiled once per target.
#include <torch/nn/functional/activation.h>
#include <torch/nn/functional/loss.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/modules/rnn.h>
#include <torch/nn/utils/clip_grad.h>
#include <torch/nn/utils/rnn.h>
#include <torch/optim/adam.h>
#include <torch/serialize.h>
#include <torch/types.h>

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>
