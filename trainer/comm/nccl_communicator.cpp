#include "trainer/comm/nccl_communicator.h"

#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#include <mpi.h>
#include <nccl.h>

#include <stdexcept>
#include <string>
#include <vector>

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
  NcclCommunicator(std::unique_ptr<Communicator> mpi, int device_index)
      : mpi_(std::move(mpi)), device_(static_cast<c10::DeviceIndex>(device_index)) {
    check(cudaSetDevice(device_index), "cudaSetDevice");
    ncclUniqueId id;
    if (mpi_->rank() == 0) check(ncclGetUniqueId(&id), "ncclGetUniqueId");
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    check(ncclCommInitRank(&comm_, mpi_->size(), id, mpi_->rank()), "ncclCommInitRank");
  }
  ~NcclCommunicator() override {
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
      t.copy_(c);
    }
  }
  void barrier() override {
    check(cudaStreamSynchronize(torch_stream(device_)), "cudaStreamSynchronize");
    mpi_->barrier();
  }

 private:
  std::unique_ptr<Communicator> mpi_;
  c10::DeviceIndex device_;
  ncclComm_t comm_ = nullptr;
};

}  // namespace

std::unique_ptr<Communicator> make_nccl_communicator(std::unique_ptr<Communicator> mpi, int device_index) {
  return std::make_unique<NcclCommunicator>(std::move(mpi), device_index);
}

}  // namespace synmt
