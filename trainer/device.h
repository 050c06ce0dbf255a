#pragma once
// Where training and decoding run: "cpu" or "cuda" (this rank's GPU: its local rank modulo the
// visible devices, the one-process-per-GPU layout of mpirun and srun). Asking for CUDA on a build
// or machine without it is a clear configuration error, never a silent fallback to the CPU.
#include <torch/nn/module.h>
#include <torch/types.h>

#include <string>

namespace synmt {

// name: cpu | cuda | cuda:N; "cuda" picks GPU local_rank % count (local_rank: this process's
// index on its node, trainer/comm/launcher.h)
torch::Device resolve_device(const std::string& name, int local_rank);

// "NVIDIA H100 80GB HBM3 (cuda:0)" for tables (from nvidia-smi where it can be run).
std::string describe_device(const torch::Device& device);

// The parameters' device (CPU for a module without parameters).
torch::Device module_device(const torch::nn::Module& module);

}  // namespace synmt
