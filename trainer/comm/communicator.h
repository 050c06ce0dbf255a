#pragma once
// Data-parallel communication (Marian's pattern): the training loop talks to a
// Communicator, which is a no-op for one process and MPI_Allreduce over one flattened bucket of
// gradients for several ranks (mpirun / srun), NCCL for GPU ranks (nccl_communicator.h).
#include <torch/types.h>

#include <memory>
#include <vector>

namespace synmt {

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Sums the tensors element-wise over all ranks, in place.
  virtual void allreduce_sum(std::vector<torch::Tensor>& tensors) = 0;
  virtual double allreduce_sum(double value) = 0;
  // Copies root's tensors to every rank, in place.
  virtual void broadcast(std::vector<torch::Tensor>& tensors, int root) = 0;
  virtual void barrier() = 0;
  bool is_root() const { return rank() == 0; }
};

// "single": one process. "mpi": the MPI world (MPI_Init on first use). "nccl": NCCL between the
// ranks' GPUs (MPI for bootstrap and host values; builds with -DSYNMT_WITH_NCCL=ON). "auto": with
// more than one rank (started by mpirun/srun), nccl when gpu_index >= 0 and NCCL is built, else
// mpi; single otherwise. gpu_index: this rank's GPU, -1 for a CPU run. timeout_seconds > 0: an MPI
// collective that has not completed after that long ends the job (MPI_Abort) with a message
// naming the rank and the operation, instead of waiting forever on a stalled rank.
std::unique_ptr<Communicator> make_communicator(const std::string& kind, int gpu_index = -1, int timeout_seconds = 0);

}  // namespace synmt
