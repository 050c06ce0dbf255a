#include "trainer/device.h"

#include <torch/cuda.h>
#include <torch/nn/module.h>
#include <torch/version.h>

#include <cstdio>
#include <cstdlib>

#ifdef SYNMT_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

#include "core/error.h"

namespace synmt {

torch::Device resolve_device(const std::string& name, int local_rank) {
  if (name == "cpu") return torch::Device(torch::kCPU);
  if (name != "cuda" && name.rfind("cuda:", 0) != 0)
    throw ConfigError("device: expected cpu, cuda or cuda:N, got '" + name + "'");
  if (!torch::cuda::is_available())
    throw ConfigError("device '" + name + "': no CUDA device is usable here (LibTorch " TORCH_VERSION +
                      (torch::cuda::device_count() == 0 ? ", built without CUDA or no GPU visible" : "") +
                      "); use device: cpu, or build against a CUDA LibTorch (docs/gpu.md)");
  const auto count = static_cast<int>(torch::cuda::device_count());
  const int index = name == "cuda" ? local_rank % count : std::atoi(name.c_str() + 5);
  if (index < 0 || index >= count)
    throw ConfigError("device '" + name + "': only " + std::to_string(count) + " CUDA device(s) visible");
  return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(index));
}

std::string describe_device(const torch::Device& device) {
  if (!device.is_cuda()) return "CPU";
#ifdef SYNMT_WITH_CUDA
  // the CUDA runtime names the card itself (no nvidia-smi needed in a container)
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, device.index()) == cudaSuccess)
    return std::string(p.name) + ", " + std::to_string(p.totalGlobalMem >> 30) + " GiB, sm_" +
           std::to_string(p.major) + std::to_string(p.minor) + " (" + device.str() + ")";
#endif
  std::string name;
  const std::string cmd = "nvidia-smi --query-gpu=name --format=csv,noheader -i " + std::to_string(device.index()) +
                          " 2>/dev/null";
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[256];
    if (std::fgets(buf, sizeof buf, p)) name = buf;
    pclose(p);
  }
  while (!name.empty() && (name.back() == '\n' || name.back() == ' ')) name.pop_back();
  return (name.empty() ? std::string("CUDA GPU") : name) + " (" + device.str() + ")";
}

torch::Device module_device(const torch::nn::Module& module) {
  for (const auto& p : module.parameters()) return p.device();
  return torch::Device(torch::kCPU);
}

}  // namespace synmt
