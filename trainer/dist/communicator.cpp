#include "trainer/dist/communicator.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

#ifdef SYNMT_WITH_MPI
#include <mpi.h>
#endif
#ifdef SYNMT_WITH_NCCL
#include "trainer/dist/nccl_communicator.h"
#endif

namespace synmt {
namespace {

class SingleCommunicator : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void allreduce_sum(std::vector<torch::Tensor>&) override {}
  double allreduce_sum(double value) override { return value; }
  void broadcast(std::vector<torch::Tensor>&, int) override {}
  void barrier() override {}
};

#ifdef SYNMT_WITH_MPI
// CPU tensors, float32: one flattened bucket per call (one MPI_Allreduce instead of one per
// parameter). MPI's default error handler aborts the whole job when a rank fails, so a dead rank
// ends the run instead of leaving the others waiting.
class MpiCommunicator : public Communicator {
 public:
  MpiCommunicator() {
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (!initialised) {
      int provided = 0;
      MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
      owns_ = true;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  ~MpiCommunicator() override {
    int finalised = 0;
    MPI_Finalized(&finalised);
    if (owns_ && !finalised) MPI_Finalize();
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void allreduce_sum(std::vector<torch::Tensor>& tensors) override {
    if (tensors.empty()) return;
    std::vector<torch::Tensor> flat;
    for (auto& t : tensors) flat.push_back(t.reshape({-1}).to(torch::kFloat32));
    // GPU tensors go through host memory (MPI is not assumed CUDA-aware); NCCL is the fast path
    torch::Tensor bucket = torch::cat(flat).to(torch::kCPU).contiguous();
    MPI_Allreduce(MPI_IN_PLACE, bucket.data_ptr<float>(), static_cast<int>(bucket.numel()), MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
    int64_t offset = 0;
    for (auto& t : tensors) {
      t.copy_(bucket.slice(0, offset, offset + t.numel()).view_as(t));
      offset += t.numel();
    }
  }
  double allreduce_sum(double value) override {
    double out = 0;
    MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return out;
  }
  void broadcast(std::vector<torch::Tensor>& tensors, int root) override {
    for (auto& t : tensors) {
      torch::Tensor c = t.to(torch::kCPU, torch::kFloat32).contiguous();
      MPI_Bcast(c.data_ptr<float>(), static_cast<int>(c.numel()), MPI_FLOAT, root, MPI_COMM_WORLD);
      t.copy_(c);
    }
  }
  void barrier() override { MPI_Barrier(MPI_COMM_WORLD); }

 private:
  int rank_ = 0, size_ = 1;
  bool owns_ = false;
};
#endif

int launcher_world_size() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "SLURM_NTASKS"})
    if (const char* s = std::getenv(v)) return std::atoi(s);
  return 1;
}

}  // namespace

std::unique_ptr<Communicator> make_communicator(const std::string& kind, int gpu_index) {
  if (kind != "auto" && kind != "mpi" && kind != "single" && kind != "nccl")
    throw std::invalid_argument("--dist: expected auto, single, mpi or nccl, got '" + kind + "'");
  const bool several = launcher_world_size() > 1;
  if (kind == "single" || (kind == "auto" && !several)) return std::make_unique<SingleCommunicator>();
#ifdef SYNMT_WITH_NCCL
  const bool nccl_built = true;
#else
  const bool nccl_built = false;
#endif
  if (kind == "nccl" && !nccl_built)
    throw std::runtime_error("--dist nccl: this build has no NCCL (configure with -DSYNMT_WITH_NCCL=ON)");
  if (kind == "nccl" && gpu_index < 0) throw std::runtime_error("--dist nccl needs train.device = cuda");
#ifdef SYNMT_WITH_MPI
  auto mpi = std::make_unique<MpiCommunicator>();
#ifdef SYNMT_WITH_NCCL
  if (gpu_index >= 0 && (kind == "nccl" || kind == "auto")) return make_nccl_communicator(std::move(mpi), gpu_index);
#endif
  return mpi;
#else
  throw std::runtime_error("this build has no MPI (configure with -DSYNMT_WITH_MPI=ON)");
#endif
}

}  // namespace synmt
