#pragma once

#include "train/allocation_observer.h"
#include "train/rank_environment.h"

#include <torch/types.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

namespace memscope {

// This process's membership in a multi-process job, on LibTorch's c10d: a TCPStore rendezvous
// (rank 0 serves it at MASTER_ADDR:MASTER_PORT) and a Gloo process group. Every collective is
// blocking, runs under a RecordFunction span ("c10d::allreduce", ...) so the recorder sees it, and
// adds its payload to bytesMoved(). A collective that fails (a peer died, the timeout passed)
// throws memscope::Error naming the operation.
class DistributedContext {
  public:
    ~DistributedContext();

    // Rendezvous with the other ranks. Throws ConfigError naming MASTER_PORT (port in use),
    // MASTER_ADDR (master unreachable within the timeout), --comm-timeout, or --device (a CUDA
    // device where this LibTorch has no NCCL). The collectives run on Gloo for the CPU and on
    // NCCL for a CUDA device (its index, or the rank's LOCAL_RANK where it names none).
    static std::shared_ptr<DistributedContext> connect(const RankEnvironment& env,
                                                       std::chrono::milliseconds timeout,
                                                       c10::Device device = c10::Device("cpu"));
    // Whether this LibTorch can run the collectives on a CUDA device (NCCL).
    static bool hasNccl();
    // "gloo" or "nccl".
    const char* backendName() const;
    // The device the collectives' tensors must be on.
    c10::Device device() const { return m_device; }

    int rank() const { return m_env.rank; }
    int worldSize() const { return m_env.world_size; }
    const RankEnvironment& environment() const { return m_env; }
    std::chrono::milliseconds timeout() const { return m_timeout; }

    void allreduceSum(const torch::Tensor& tensor);
    // outputs[k] receives rank k's input (all the same shape).
    void allgather(const std::vector<torch::Tensor>& outputs, const torch::Tensor& input);
    // Sums tensor over the ranks into root's copy (other ranks' copies are scratch afterwards).
    void reduceSum(const torch::Tensor& tensor, int root);
    void barrier();

    // Told of every collective's payload inside its span (the recorder adds it to the c10d
    // op's row); nullptr: nobody.
    void setObserver(AllocationObserver* observer) { m_observer = observer; }

    // Payload bytes this rank handed to collectives so far.
    int64_t bytesMoved() const { return m_bytes; }
    // Bytes this rank sends for them with ring algorithms (what NCCL/RCCL do, and what the
    // planner's communication volume counts): all-reduce of P: 2(N-1)/N x P; all-gather of a
    // shard S: (N-1) x S; reduce of P to one rank (a reduce-scatter's share): (N-1)/N x P.
    int64_t sentBytes() const { return int64_t(m_sent); }

  private:
    struct Impl;
    void noteSent(int64_t bytes);
    DistributedContext(RankEnvironment env, std::chrono::milliseconds timeout,
                       std::unique_ptr<Impl> impl, c10::Device device);

    RankEnvironment m_env;
    std::chrono::milliseconds m_timeout;
    std::unique_ptr<Impl> m_impl;
    c10::Device m_device{c10::DeviceType::CPU};
    int64_t m_bytes = 0;
    double m_sent = 0;
    AllocationObserver* m_observer = nullptr;
};

}  // namespace memscope
