#include "trainer/comm/launcher.h"

#include <algorithm>
#include <cstdlib>
#include <initializer_list>

namespace synmt {
namespace {
// The first of `names` that is set, as an integer (SLURM_NTASKS_PER_NODE may read "2(x3)": the
// leading number is the count), else `otherwise`.
int first_set(std::initializer_list<const char*> names, int otherwise) {
  for (const char* name : names)
    if (const char* value = std::getenv(name)) return std::atoi(value);
  return otherwise;
}
}  // namespace

LauncherEnvironment launcher_environment() {
  LauncherEnvironment e;
  e.world_size = std::max(1, first_set({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "SLURM_NTASKS"}, 1));
  e.local_rank = std::max(0, first_set({"OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "MPI_LOCALRANKID", "LOCAL_RANK"}, 0));
  e.local_size = std::max(1, first_set({"OMPI_COMM_WORLD_LOCAL_SIZE", "SLURM_NTASKS_PER_NODE"}, 1));
  return e;
}

}  // namespace synmt
