#pragma once
// Process-level setup for training and decoding: thread counts (LibTorch intra-op, and OpenBLAS's
// pool for a LibTorch built on it, so that ranks x threads never exceeds the cores), a loud warning
// when LibTorch runs on the reference BLAS (~25x slower), and a description of the hardware.
#include <string>

namespace synmt {

struct RuntimeInfo {
  std::string blas;      // "MKL (in LibTorch)" and/or resolved paths of the BLAS libraries loaded
  bool blas_is_fast = false;
  int threads = 1;
  std::string hardware;  // e.g. "2x AMD EPYC 7B13 (CPU), 2 threads"
};

// threads <= 0: all cores divided by the number of local MPI ranks.
RuntimeInfo setup_runtime(int threads, int local_ranks = 1);

// The thread count setup_runtime chose, and the BLAS threads (OpenBLAS's pool; LibTorch's intra-op
// pool when the BLAS is the MKL inside LibTorch; runtime_threads() restores setup_runtime's). Parsing
// runs one model replica per thread with a single-threaded BLAS each (faster than one replica on
// a multi-threaded BLAS for the small matrices of a parser).
int runtime_threads();
void set_blas_threads(int threads);

}  // namespace synmt
