#include "trainer/runtime.h"

#include <dlfcn.h>
#include <malloc.h>
#include <sched.h>
#include <link.h>

#include <climits>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <ATen/Context.h>
#include <torch/utils.h>
#include <torch/version.h>

#include "core/log.h"

namespace synmt {
namespace {
int collect_blas(struct dl_phdr_info* info, size_t, void* data) {
  std::string name = info->dlpi_name ? info->dlpi_name : "";
  const bool cuda_library = name.find("cublas") != std::string::npos;  // the GPU's, loaded with LibTorch's CUDA part
  if (!cuda_library && (name.find("blas") != std::string::npos || name.find("mkl") != std::string::npos)) {
    char resolved[PATH_MAX];
    std::string real = realpath(name.c_str(), resolved) ? std::string(resolved) : name;
    auto* out = static_cast<std::string*>(data);
    if (!out->empty()) *out += ";";
    *out += real;
  }
  return 0;
}

// The CPUs this process may run on (its affinity mask: srun --cpus-per-task, taskset, a cgroup
// cpuset), not all of the machine's: LibTorch's OpenMP pool sized to the machine made two jobs
// sharing a node spin against each other (the SLURM test ran past its budget).
int usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
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
int g_torch_threads = 1;  // LibTorch's intra-op pool as setup_runtime sized it
// LibTorch's CPU allocator takes every tensor from malloc. glibc serves a block above its mmap
// threshold (dynamic, at most 32 MiB) with a fresh mmap and unmaps it on free, so the large
// tensors of every update (a Transformer's logits: 2,000 tokens x 8,000 types x 4 bytes = 64 MiB,
// their log-softmax and gradients) came back as new pages that the kernel faulted in and zeroed
// each time: 11 of 80 CPU seconds in the kernel over 30 updates of the Pascal mini Transformer.
// Served from the heap and kept there after free (thresholds of 1 GiB), the same run spent 1 s
// there and its wall time was 1.14x shorter, for 1.29x the peak memory (docs/benchmarks.md,
// "Freed memory kept by malloc").
// SYNMT_MALLOC_DEFAULTS=1 keeps glibc's defaults (for that comparison).
void keep_freed_memory() {
  if (const char* e = std::getenv("SYNMT_MALLOC_DEFAULTS"); e && std::string(e) == "1") return;
  constexpr int kThreshold = 1 << 30;
  if (mallopt(M_MMAP_THRESHOLD, kThreshold) != 1 || mallopt(M_TRIM_THRESHOLD, kThreshold) != 1)
    log_warn("runtime: malloc refused the mmap/trim thresholds: large tensors stay on mmap (slower on the CPU)");
}
}  // namespace

int runtime_threads() { return g_threads; }

void set_blas_threads(int threads) {
  using SetThreads = void (*)(int);
  if (auto fn = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) fn(threads);
  // MKL inside LibTorch runs in LibTorch's intra-op pool, which new threads size from this value
  if (at::hasMKL()) torch::set_num_threads(threads == g_threads ? g_torch_threads : threads);
}

RuntimeInfo setup_runtime(int threads, int local_ranks) {
  RuntimeInfo info;
  keep_freed_memory();
  const int cores = usable_cores();
  info.threads = threads > 0 ? threads : std::max(1, cores / std::max(1, local_ranks));
  g_threads = info.threads;
  if (info.threads * local_ranks > cores)
    log_warn("threads (" + std::to_string(info.threads) + ") x local ranks (" + std::to_string(local_ranks) +
             ") exceeds the " + std::to_string(cores) + " cores: expect oversubscription");
  // PyTorch's wheel carries MKL inside libtorch_cpu (no separate library to find) and sizes its
  // pool with LibTorch's intra-op threads (OpenMP); a LibTorch on an external OpenBLAS shows it
  // among the loaded libraries.
  dl_iterate_phdr(collect_blas, &info.blas);
  if (at::hasMKL()) info.blas = "MKL (in LibTorch)" + (info.blas.empty() ? std::string() : ";" + info.blas);
  // With OpenBLAS's own pthread pool (LibTorch 1.13 from Debian, measured on the 2-core CI
  // machine) LibTorch's OpenMP pool and OpenBLAS's both spinning at 2 threads ran the RNN demo at
  // 665 target tokens/s, BLAS at 2 with intra-op 1 at 1785: there the cores go to BLAS. MKL runs
  // in LibTorch's OpenMP pool, so it gets the intra-op threads.
  const bool pthread_blas = !at::hasMKL() && info.blas.find("openblas-pthread") != std::string::npos;
  int torch_threads = pthread_blas ? 1 : info.threads, blas_threads = info.threads;
  if (const char* e = std::getenv("SYNMT_TORCH_THREADS")) torch_threads = std::atoi(e);
  if (const char* e = std::getenv("SYNMT_BLAS_THREADS")) blas_threads = std::atoi(e);
  torch::set_num_threads(torch_threads);
  g_torch_threads = torch_threads;
  // OpenBLAS keeps its own pool; size it like LibTorch's so the two do not oversubscribe.
  using SetThreads = void (*)(int);
  if (auto fn = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) fn(blas_threads);
  if (at::hasMKL()) blas_threads = torch_threads;
  info.blas_is_fast = at::hasMKL() || info.blas.find("openblas") != std::string::npos ||
                      info.blas.find("mkl") != std::string::npos;
  if (!info.blas_is_fast)
    log_warn("**** LibTorch is using the reference BLAS (" + (info.blas.empty() ? std::string("none found") : info.blas) +
             "): training will be ~25x slower. Use PyTorch's LibTorch (MKL inside) or one on OpenBLAS. ****");
  info.hardware = cpu_model() + " (CPU), " + std::to_string(info.threads) + " thread(s) (BLAS " +
                  std::to_string(blas_threads) + ", intra-op " + std::to_string(torch_threads) + "), LibTorch " +
                  TORCH_VERSION;
  log_info("runtime: " + info.hardware + ", BLAS " + info.blas);
  return info;
}

}  // namespace synmt
