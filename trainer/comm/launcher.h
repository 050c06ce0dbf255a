#pragma once
// Where this process stands in a multi-process job, read once from the launcher's environment:
// Open MPI's mpirun (OMPI_COMM_WORLD_*), MPICH/Hydra and PMIx (PMI_*, PMIX_*, MPI_LOCALRANKID),
// SLURM's srun (SLURM_*), and torchrun-style LOCAL_RANK. Torch-free. Without a launcher: one
// process, rank 0 of 1.
namespace synmt {

struct LauncherEnvironment {
  int world_size = 1;  // processes in the job
  int local_rank = 0;  // this process's index among those on its node (picks its GPU)
  int local_size = 1;  // processes on this node (shares the node's cores)
};

LauncherEnvironment launcher_environment();

}  // namespace synmt
