#include "trainer/comm/communicator.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

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
    // a communicator of its own for the liveness probe, so that its messages never match the
    // training's collectives
    MPI_Comm_dup(MPI_COMM_WORLD, &probe_comm_);
    gather_hosts();
  }
  ~MpiCommunicator() override {
    int finalised = 0;
    MPI_Finalized(&finalised);
    if (!finalised) MPI_Comm_free(&probe_comm_);
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
  // Every rank's host name, logged once by rank 0: a multi-node job's log says where it ran.
  void gather_hosts() {
    char name[MPI_MAX_PROCESSOR_NAME] = {};
    int length = 0;
    MPI_Get_processor_name(name, &length);
    std::vector<char> all(static_cast<size_t>(size_) * MPI_MAX_PROCESSOR_NAME, '\0');
    MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD);
    std::string where;
    for (int r = 0; r < size_; ++r) {
      hosts_.emplace_back(&all[static_cast<size_t>(r) * MPI_MAX_PROCESSOR_NAME]);
      where += (r ? ", " : "") + std::to_string(r) + " on " + hosts_.back();
    }
    if (rank_ == 0) log_info("MPI: " + std::to_string(size_) + " ranks: " + where);
  }
  std::string who(int rank) const { return "rank " + std::to_string(rank) + " on " + hosts_[static_cast<size_t>(rank)]; }

  // A probe that another rank sent while this one waits: answered at once, so that a rank whose
  // collective timed out can tell the ranks that are alive (and waiting too) from those that are
  // not (stopped, or on a node that is gone).
  void answer_probes() {
    int pending = 1;
    while (pending) {
      MPI_Status status;
      MPI_Iprobe(MPI_ANY_SOURCE, kProbe, probe_comm_, &pending, &status);
      if (!pending) return;
      int token = 0;
      MPI_Recv(&token, 1, MPI_INT, status.MPI_SOURCE, kProbe, probe_comm_, MPI_STATUS_IGNORE);
      MPI_Request reply;
      MPI_Isend(&kAnswerToken, 1, MPI_INT, status.MPI_SOURCE, kAnswer, probe_comm_, &reply);
      MPI_Request_free(&reply);
    }
  }

  // The ranks that do not answer a probe within `window`: each is sent one, and the answers are
  // awaited while this rank keeps answering the others' probes.
  std::vector<int> unanswering_ranks(std::chrono::seconds window) {
    std::vector<MPI_Request> replies(static_cast<size_t>(size_), MPI_REQUEST_NULL);
    std::vector<int> answers(static_cast<size_t>(size_), 0);
    for (int r = 0; r < size_; ++r) {
      if (r == rank_) continue;
      MPI_Request probe;
      MPI_Isend(&kProbeToken, 1, MPI_INT, r, kProbe, probe_comm_, &probe);
      MPI_Request_free(&probe);
      MPI_Irecv(&answers[static_cast<size_t>(r)], 1, MPI_INT, r, kAnswer, probe_comm_, &replies[static_cast<size_t>(r)]);
    }
    const auto until = std::chrono::steady_clock::now() + window;
    std::vector<int> silent;
    while (true) {
      answer_probes();
      silent.clear();
      for (int r = 0; r < size_; ++r) {
        if (replies[static_cast<size_t>(r)] == MPI_REQUEST_NULL) continue;
        int done = 0;
        MPI_Test(&replies[static_cast<size_t>(r)], &done, MPI_STATUS_IGNORE);
        if (!done) silent.push_back(r);
      }
      if (silent.empty() || std::chrono::steady_clock::now() > until) return silent;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

  // MPI_Wait with a deadline: polls (a busy loop for the first millisecond, the usual wait of a
  // gradient sum, then 100-microsecond sleeps so that a rank waiting out a validation idles),
  // answering the other ranks' liveness probes meanwhile. Past the deadline it probes every other
  // rank and ends the job naming those that did not answer, with their hosts.
  void wait(MPI_Request& request, const char* operation) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    int done = 0;
    for (long polls = 0;; ++polls) {
      MPI_Test(&request, &done, MPI_STATUS_IGNORE);
      if (done) return;
      if (size_ > 1) answer_probes();
      const auto waited = Clock::now() - start;
      if (timeout_seconds_ > 0 && waited > std::chrono::seconds(timeout_seconds_)) {
        const auto window = std::chrono::seconds(std::clamp(timeout_seconds_ / 4, 1, 10));
        const std::vector<int> silent = unanswering_ranks(window);
        std::string verdict;
        for (int r : silent) verdict += (verdict.empty() ? "" : ", ") + who(r);
        verdict = silent.empty() ? "every other rank answers a probe (one of them is slow, or the network drops the collective's traffic)"
                                 : "no answer within " + std::to_string(window.count()) + " s from " + verdict;
        log_error("rank " + std::to_string(rank_) + " of " + std::to_string(size_) + " (on " + hosts_[static_cast<size_t>(rank_)] + "): " +
                  operation + " did not complete within " + std::to_string(timeout_seconds_) + " s (train.comm_timeout); " + verdict +
                  "; ending the job");
        MPI_Abort(MPI_COMM_WORLD, 3);
      }
      if (waited > std::chrono::milliseconds(1)) std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }

  static constexpr int kProbe = 1, kAnswer = 2;
  static constexpr int kProbeToken = 1, kAnswerToken = 2;
  int rank_ = 0, size_ = 1;
  int timeout_seconds_ = 0;
  MPI_Comm probe_comm_ = MPI_COMM_NULL;
  std::vector<std::string> hosts_;
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
  if (gpu_index >= 0 && (kind == "nccl" || kind == "auto")) return make_nccl_communicator(std::move(mpi), gpu_index, timeout_seconds);
#endif
  return mpi;
#else
  throw std::runtime_error("this build has no MPI (configure with -DSYNMT_WITH_MPI=ON)");
#endif
}

}  // namespace synmt
