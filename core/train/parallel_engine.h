#pragma once

#include "model/block_observer.h"
#include "model/tiny_llama.h"
#include "run/parallel_mode.h"
#include "train/allocation_observer.h"
#include "train/distributed_context.h"

#include <memory>
#include <vector>

namespace memscope {

// Data-parallel training state of one rank, on c10d collectives (DistributedContext):
// - ddp: gradients are views into one flat buffer, all-reduced in place in buckets of
//   bucket_bytes (PyTorch DDP with gradient_as_bucket_view) and averaged.
// - zero1: as ddp, and the parameters become views into one flat buffer split into equal
//   ranges; the optimizer only sees this rank's range (its state is 1/N), and after its step the
//   updated ranges are all-gathered.
// - zero2: as zero1, but the gradients are reduced bucket by bucket to the rank that owns each
//   range (c10d reduce; Gloo has no reduce_scatter) into a gradient shard; the full gradients
//   are freed after the reduction.
// - zero3: parameters grouped per transformer block plus a root group (embedding, final norm,
//   head); each rank keeps only its range of each group. A block's group is all-gathered before
//   its forward and freed after it, gathered again before its backward, its gradients reduced
//   to their owners and the gathered copy freed right after it. The root group stays gathered
//   from the start of the forward to the end of the backward.
// The Trainer calls the hooks in the order below; everything else is the single-process step.
class ParallelEngine : public BlockObserver {
  public:
    ParallelEngine(ParallelMode mode, std::shared_ptr<DistributedContext> context,
                   int64_t bucket_bytes, AllocationObserver* observer);
    ~ParallelEngine() override;

    // Takes over the model's parameters (same seed on every rank, so they start equal) and
    // returns the tensors the optimizer updates: the parameters (ddp) or this rank's shards.
    std::vector<torch::Tensor> attach(TinyLlama& model);
    void zeroGrad();
    void beforeForward();
    void afterBackward();
    void afterOptimizerStep();
    // Frees whatever ZeRO-3 still holds gathered (also after a forward-only step or an error).
    void endStep();
    // The mean of the ranks' losses: the loss of the global batch.
    double globalLoss(double local_loss);

    void beforeBlock(size_t index, const torch::Tensor& input) override;
    void afterBlock(size_t index, const torch::Tensor& output) override;

    const DistributedContext& context() const { return *m_context; }

  private:
    struct Group;
    void gather(Group& g);
    void release(Group& g);
    void allreduceGradients(Group& g);
    void reduceGradientsToOwners(Group& g);
    void announce(const torch::Tensor& t, Category category);

    ParallelMode m_mode;
    std::shared_ptr<DistributedContext> m_context;
    int64_t m_bucketElements;
    AllocationObserver* m_observer;
    std::vector<std::unique_ptr<Group>> m_groups;  // zero3: [0] root, [1 + i] block i
    TinyLlama* m_model = nullptr;
};

}  // namespace memscope
