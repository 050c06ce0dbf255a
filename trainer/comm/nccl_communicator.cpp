#include "trainer/comm/nccl_communicator.h"

#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#include <mpi.h>
#include <nccl.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/log.h"

namespace synmt {
namespace {

void check(ncclResult_t r, const char* what) {
  if (r != ncclSuccess) throw std::runtime_error(std::string(what) + ": " + ncclGetErrorString(r));
}
void check(cudaError_t r, const char* what) {
  if (r != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(r));
}

// Collectives go on LibTorch's current stream of the rank's device (the default stream unless a
// caller set another): ordered after the kernels that produced their inputs and before the ones
// that read the results, without a host synchronisation.
cudaStream_t torch_stream(c10::DeviceIndex device) { return c10::cuda::getCurrentCUDAStream(device).stream(); }

class NcclCommunicator : public Communicator {
 public:
  NcclCommunicator(std::unique_ptr<Communicator> mpi, int device_index, int timeout_seconds)
      : mpi_(std::move(mpi)), device_(static_cast<c10::DeviceIndex>(device_index)), timeout_seconds_(timeout_seconds) {
    check(cudaSetDevice(device_index), "cudaSetDevice");
    ncclUniqueId id;
    if (mpi_->rank() == 0) check(ncclGetUniqueId(&id), "ncclGetUniqueId");
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    const ncclResult_t init = ncclCommInitRank(&comm_, mpi_->size(), id, mpi_->rank());
    // NCCL allows one rank per GPU; two ranks on one device fail here with a generic message
    // (seen on an H100: "invalid usage"), so say what the usual cause is
    if (init == ncclInvalidUsage)
      throw std::runtime_error("ncclCommInitRank: invalid usage; NCCL takes one rank per GPU, and rank " + std::to_string(mpi_->rank()) +
                               " is on GPU " + std::to_string(device_index) +
                               ": start no more ranks per node than GPUs, or use --dist mpi (NCCL_DEBUG=WARN names the ranks)");
    check(init, "ncclCommInitRank");
  }
  ~NcclCommunicator() override {
    if (done_ != nullptr) cudaEventDestroy(done_);
    if (comm_ != nullptr) ncclCommDestroy(comm_);
  }
  int rank() const override { return mpi_->rank(); }
  int size() const override { return mpi_->size(); }

  void allreduce_sum(std::vector<torch::Tensor>& tensors) override {
    if (tensors.empty()) return;
    if (!tensors.front().is_cuda()) return mpi_->allreduce_sum(tensors);
    std::vector<torch::Tensor> flat;
    flat.reserve(tensors.size());
    for (auto& t : tensors) flat.push_back(t.reshape({-1}).to(torch::kFloat32));
    torch::Tensor bucket = torch::cat(flat).contiguous();
    check(ncclAllReduce(bucket.data_ptr<float>(), bucket.data_ptr<float>(), static_cast<size_t>(bucket.numel()),
                        ncclFloat, ncclSum, comm_, torch_stream(device_)),
          "ncclAllReduce");
    wait("the NCCL gradient sum");
    int64_t offset = 0;
    for (auto& t : tensors) {
      t.copy_(bucket.slice(0, offset, offset + t.numel()).view_as(t));
      offset += t.numel();
    }
  }
  double allreduce_sum(double value) override { return mpi_->allreduce_sum(value); }
  void broadcast(std::vector<torch::Tensor>& tensors, int root) override {
    for (auto& t : tensors) {
      if (!t.is_cuda()) {
        std::vector<torch::Tensor> one{t};
        mpi_->broadcast(one, root);
        continue;
      }
      torch::Tensor c = t.to(torch::kFloat32).contiguous();
      check(ncclBroadcast(c.data_ptr<float>(), c.data_ptr<float>(), static_cast<size_t>(c.numel()), ncclFloat, root,
                          comm_, torch_stream(device_)),
            "ncclBroadcast");
      wait("the NCCL parameter broadcast");
      t.copy_(c);
    }
  }
  void barrier() override {
    if (timeout_seconds_ > 0)
      wait("the GPU work before a barrier");
    else
      check(cudaStreamSynchronize(torch_stream(device_)), "cudaStreamSynchronize");
    mpi_->barrier();
  }

 private:
  // The NCCL counterpart of the MPI path's deadline. A collective whose peer has stopped (a hung
  // process, a lost node) never completes, and the kernel waiting for it would hold this rank
  // forever: NCCL has no timeout of its own. With train.comm_timeout > 0 the host waits for an
  // event recorded after the collective, polling it and NCCL's asynchronous error; past the
  // deadline (or on an NCCL error) it aborts the NCCL communicator, which ends the waiting kernel,
  // and ends the job naming the rank and the operation. The cost is one host wait per gradient sum,
  // where the update's loss is read back anyway. Without a timeout nothing waits here.
  void wait(const char* operation) {
    if (timeout_seconds_ <= 0) return;
    using Clock = std::chrono::steady_clock;
    if (done_ == nullptr) check(cudaEventCreateWithFlags(&done_, cudaEventDisableTiming), "cudaEventCreate");
    check(cudaEventRecord(done_, torch_stream(device_)), "cudaEventRecord");
    const auto start = Clock::now();
    while (true) {
      const cudaError_t state = cudaEventQuery(done_);
      if (state == cudaSuccess) return;
      if (state != cudaErrorNotReady) check(state, "cudaEventQuery");
      ncclResult_t async = ncclSuccess;
      check(ncclCommGetAsyncError(comm_, &async), "ncclCommGetAsyncError");
      const auto waited = Clock::now() - start;
      const bool late = waited > std::chrono::seconds(timeout_seconds_);
      if (async != ncclSuccess || late) {
        const std::string why = async != ncclSuccess ? std::string("failed: ") + ncclGetErrorString(async)
                                                     : "did not complete within " + std::to_string(timeout_seconds_) + " s (train.comm_timeout)";
        log_error("rank " + std::to_string(rank()) + " of " + std::to_string(size()) + " (GPU " + std::to_string(device_) + "): " +
                  operation + " " + why + "; aborting the NCCL communicator and ending the job");
        ncclCommAbort(comm_);
        comm_ = nullptr;
        MPI_Abort(MPI_COMM_WORLD, 3);
      }
      if (waited > std::chrono::milliseconds(1)) std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }

  std::unique_ptr<Communicator> mpi_;
  c10::DeviceIndex device_;
  int timeout_seconds_ = 0;
  ncclComm_t comm_ = nullptr;
  cudaEvent_t done_ = nullptr;
};

}  // namespace

std::unique_ptr<Communicator> make_nccl_communicator(std::unique_ptr<Communicator> mpi, int device_index, int timeout_seconds) {
  return std::make_unique<NcclCommunicator>(std::move(mpi), device_index, timeout_seconds);
}

}  // namespace synmt
