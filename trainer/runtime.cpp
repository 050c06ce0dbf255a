#include "trainer/runtime.h"

#include <dlfcn.h>
#include <link.h>

#include <climits>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <torch/utils.h>

#include "core/log.h"
#include "trainer/torch_compat.h"

namespace synmt {
namespace {
int collect_blas(struct dl_phdr_info* info, size_t, void* data) {
  std::string name = info->dlpi_name ? info->dlpi_name : "";
  if (name.find("blas") != std::string::npos || name.find("mkl") != std::string::npos) {
    char resolved[PATH_MAX];
    std::string real = realpath(name.c_str(), resolved) ? std::string(resolved) : name;
    auto* out = static_cast<std::string*>(data);
    if (!out->empty()) *out += ";";
    *out += real;
  }
  return 0;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}
}  // namespace

RuntimeInfo setup_runtime(int threads, int local_ranks) {
  RuntimeInfo info;
  int cores = static_cast<int>(std::thread::hardware_concurrency());
  if (cores <= 0) cores = 1;
  info.threads = threads > 0 ? threads : std::max(1, cores / std::max(1, local_ranks));
  if (info.threads * local_ranks > cores)
    log_warn("threads (" + std::to_string(info.threads) + ") x local ranks (" + std::to_string(local_ranks) +
             ") exceeds the " + std::to_string(cores) + " cores: expect oversubscription");
  torch::set_num_threads(info.threads);
  // OpenBLAS keeps its own pool; size it like LibTorch's so the two do not oversubscribe.
  using SetThreads = void (*)(int);
  if (auto fn = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) fn(info.threads);
  dl_iterate_phdr(collect_blas, &info.blas);
  info.blas_is_fast = info.blas.find("openblas") != std::string::npos || info.blas.find("mkl") != std::string::npos;
  if (!info.blas_is_fast)
    log_warn("**** LibTorch is using the reference BLAS (" + (info.blas.empty() ? std::string("none found") : info.blas) +
             "): training will be ~25x slower. Install libopenblas0-pthread. ****");
  info.hardware = cpu_model() + " (CPU), " + std::to_string(info.threads) + " thread(s), LibTorch " +
                  std::to_string(compat::kTorchMajor) + "." + std::to_string(compat::kTorchMinor);
  log_info("runtime: " + info.hardware + ", BLAS " + info.blas);
  return info;
}

}  // namespace synmt
