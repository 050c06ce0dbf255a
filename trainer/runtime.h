#pragma once
// Process-level setup for training and decoding: thread counts (LibTorch intra-op and OpenBLAS,
// so that ranks x threads never exceeds the cores), a loud warning when LibTorch runs on the
// reference BLAS instead of OpenBLAS (~25x slower), and a description of the hardware for tables.
#include <string>

namespace synmt {

struct RuntimeInfo {
  std::string blas;      // resolved path of the BLAS library LibTorch uses
  bool blas_is_fast = false;
  int threads = 1;
  std::string hardware;  // e.g. "2x AMD EPYC 7B13 (CPU), 2 threads"
};

// threads <= 0: all cores divided by the number of local MPI ranks.
RuntimeInfo setup_runtime(int threads, int local_ranks = 1);

// The thread count setup_runtime chose, and OpenBLAS' pool size (no-op for another BLAS). Parsing
// runs one model replica per thread with a single-threaded BLAS each (faster than one replica on
// a multi-threaded BLAS for the small matrices of a parser).
int runtime_threads();
void set_blas_threads(int threads);

}  // namespace synmt
