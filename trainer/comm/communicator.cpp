#include "trainer/comm/communicator.h"

#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

#include "core/log.h"
#include "trainer/comm/launcher.h"

#ifdef SYNMT_WITH_MPI
#include <mpi.h>
#endif
#ifdef SYNMT_WITH_NCCL
#include "trainer/comm/nccl_communicator.h"
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
// ends the run instead of leaving the others waiting; a rank that stalls without dying is caught
// by the timeout: every collective is started non-blocking and waited for with a deadline.
class MpiCommunicator : public Communicator {
 public:
  explicit MpiCommunicator(int timeout_seconds) : timeout_seconds_(timeout_seconds) {
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
    MPI_Request request;
    MPI_Iallreduce(MPI_IN_PLACE, bucket.data_ptr<float>(), static_cast<int>(bucket.numel()), MPI_FLOAT, MPI_SUM,
                   MPI_COMM_WORLD, &request);
    wait(request, "the gradient sum");
    int64_t offset = 0;
    for (auto& t : tensors) {
      t.copy_(bucket.slice(0, offset, offset + t.numel()).view_as(t));
      offset += t.numel();
    }
  }
  double allreduce_sum(double value) override {
    double out = 0;
    MPI_Request request;
    MPI_Iallreduce(&value, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &request);
    wait(request, "a sum of counts");
    return out;
  }
  void broadcast(std::vector<torch::Tensor>& tensors, int root) override {
    for (auto& t : tensors) {
      torch::Tensor c = t.to(torch::kCPU, torch::kFloat32).contiguous();
      MPI_Request request;
      MPI_Ibcast(c.data_ptr<float>(), static_cast<int>(c.numel()), MPI_FLOAT, root, MPI_COMM_WORLD, &request);
      wait(request, "the parameter broadcast");
      t.copy_(c);
    }
  }
  void barrier() override {
    MPI_Request request;
    MPI_Ibarrier(MPI_COMM_WORLD, &request);
    wait(request, "a barrier");
  }

 private:
  // MPI_Wait with a deadline: polls (a busy loop for the first millisecond, the usual wait of a
  // gradient sum, then 100-microsecond sleeps so that a rank waiting out a validation idles).
  void wait(MPI_Request& request, const char* operation) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    int done = 0;
    for (long polls = 0;; ++polls) {
      MPI_Test(&request, &done, MPI_STATUS_IGNORE);
      if (done) return;
      const auto waited = Clock::now() - start;
      if (timeout_seconds_ > 0 && waited > std::chrono::seconds(timeout_seconds_)) {
        log_error("rank " + std::to_string(rank_) + " of " + std::to_string(size_) + ": " + operation + " did not complete within " +
                  std::to_string(timeout_seconds_) + " s (train.comm_timeout): another rank is stalled; ending the job");
        MPI_Abort(MPI_COMM_WORLD, 3);
      }
      if (waited > std::chrono::milliseconds(1)) std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }

  int rank_ = 0, size_ = 1;
  int timeout_seconds_ = 0;
  bool owns_ = false;
};
#endif

}  // namespace

std::unique_ptr<Communicator> make_communicator(const std::string& kind, int gpu_index, int timeout_seconds) {
  if (kind != "auto" && kind != "mpi" && kind != "single" && kind != "nccl")
    throw std::invalid_argument("--dist: expected auto, single, mpi or nccl, got '" + kind + "'");
  const bool several = launcher_environment().world_size > 1;
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
  auto mpi = std::make_unique<MpiCommunicator>(timeout_seconds);
#ifdef SYNMT_WITH_NCCL
  if (gpu_index >= 0 && (kind == "nccl" || kind == "auto")) return make_nccl_communicator(std::move(mpi), gpu_index);
#endif
  return mpi;
#else
  throw std::runtime_error("this build has no MPI (configure with -DSYNMT_WITH_MPI=ON)");
#endif
}

}  // namespace synmt
