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

namespace {
int g_threads = 1;
}  // namespace

int runtime_threads() { return g_threads; }

void set_blas_threads(int threads) {
  using SetThreads = void (*)(int);
  if (auto fn = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) fn(threads);
}

RuntimeInfo setup_runtime(int threads, int local_ranks) {
  RuntimeInfo info;
  int cores = static_cast<int>(std::thread::hardware_concurrency());
  if (cores <= 0) cores = 1;
  info.threads = threads > 0 ? threads : std::max(1, cores / std::max(1, local_ranks));
  g_threads = info.threads;
  if (info.threads * local_ranks > cores)
    log_warn("threads (" + std::to_string(info.threads) + ") x local ranks (" + std::to_string(local_ranks) +
             ") exceeds the " + std::to_string(cores) + " cores: expect oversubscription");
  dl_iterate_phdr(collect_blas, &info.blas);
  // Measured on the 2-core CI machine (docs/benchmarks.md): LibTorch's OpenMP pool and OpenBLAS's
  // pthread pool both spinning at 2 threads ran the RNN demo at 665 target tokens/s; BLAS at 2
  // threads with LibTorch's intra-op pool at 1 ran at 1785. So with a pthread BLAS the cores go to
  // BLAS, which does nearly all of the arithmetic.
  const bool pthread_blas = info.blas.find("openblas-pthread") != std::string::npos;
  int torch_threads = pthread_blas ? 1 : info.threads, blas_threads = info.threads;
  if (const char* e = std::getenv("SYNMT_TORCH_THREADS")) torch_threads = std::atoi(e);
  if (const char* e = std::getenv("SYNMT_BLAS_THREADS")) blas_threads = std::atoi(e);
  torch::set_num_threads(torch_threads);
  // OpenBLAS keeps its own pool; size it like LibTorch's so the two do not oversubscribe.
  using SetThreads = void (*)(int);
  if (auto fn = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) fn(blas_threads);
  info.blas_is_fast = info.blas.find("openblas") != std::string::npos || info.blas.find("mkl") != std::string::npos;
  if (!info.blas_is_fast)
    log_warn("**** LibTorch is using the reference BLAS (" + (info.blas.empty() ? std::string("none found") : info.blas) +
             "): training will be ~25x slower. Install libopenblas0-pthread. ****");
  info.hardware = cpu_model() + " (CPU), " + std::to_string(info.threads) + " thread(s) (BLAS " +
                  std::to_string(blas_threads) + ", intra-op " + std::to_string(torch_threads) + "), LibTorch " +
                  std::to_string(compat::kTorchMajor) + "." + std::to_string(compat::kTorchMinor);
  log_info("runtime: " + info.hardware + ", BLAS " + info.blas);
  return info;
}

}  // namespace synmt
