#pragma once
// NCCL data parallelism for GPU ranks (docs/architecture.md): one NCCL communicator per job, its unique id
// broadcast over MPI from rank 0; GPU tensors are all-reduced as one flattened float32 bucket
// with ncclAllReduce, on the CUDA stream LibTorch computes on (the default stream), so gradients
// are summed after backward() has produced them and before the optimizer reads them, with no host
// synchronisation. CPU tensors and scalars (token counts, RNG states, stop decisions) go through
// MPI. Built with -DSYNMT_WITH_NCCL=ON (CUDA toolkit and NCCL); launched by mpirun or srun with
// one rank per GPU (NCCL refuses two ranks on one GPU: "Duplicate GPU detected"). A dead rank: the
// launcher (mpirun, srun --kill-on-bad-exit) ends the job; a stalled one: the deadline
// (train.comm_timeout) on every collective, as on the MPI path.
#include <memory>

#include "trainer/comm/communicator.h"

namespace synmt {

// mpi: the job's MPI communicator (rank, size, bootstrap); device_index: this rank's GPU;
// timeout_seconds > 0: a collective not completed after that long ends the job.
std::unique_ptr<Communicator> make_nccl_communicator(std::unique_ptr<Communicator> mpi, int device_index, int timeout_seconds);

}  // namespace synmt
