#pragma once
// NCCL data parallelism for GPU ranks (docs/architecture.md): one NCCL communicator per job, its unique id
// broadcast over MPI from rank 0; GPU tensors are all-reduced as one flattened float32 bucket
// with ncclAllReduce, on the CUDA stream LibTorch computes on (the default stream), so gradients
// are summed after backward() has produced them and before the optimizer reads them, with no host
// synchronisation. CPU tensors and scalars (token counts, RNG states, stop decisions) go through
// MPI. Built with -DSYNMT_WITH_NCCL=ON (CUDA toolkit and NCCL); launched by mpirun or srun with
// one rank per GPU. A dead rank: the launcher (mpirun, srun --kill-on-bad-exit) ends the job.
#include <memory>

#include "trainer/comm/communicator.h"

namespace synmt {

// mpi: the job's MPI communicator (rank, size, bootstrap); device_index: this rank's GPU.
std::unique_ptr<Communicator> make_nccl_communicator(std::unique_ptr<Communicator> mpi, int device_index);

}  // namespace synmt
