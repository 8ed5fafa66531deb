#pragma once

#include "model/cancellation.h"
#include "run/parallel_mode.h"
#include "run/run_summary.h"
#include "run/train_options.h"
#include "train/allocation_hook.h"
#include "train/distributed_context.h"

#include <functional>
#include <memory>

namespace memscope {

// Trains (or runs forward-only) a Tiny LLaMA on synthetic tokens in the calling thread, timing
// each phase and counting allocations through an AllocationHook. run() blocks; the GUI and CLI
// call it from a worker thread and may cancel() from any other thread.
class Trainer {
  public:
    explicit Trainer(TrainOptions options);

    // Called on the training thread after every step.
    void setStepCallback(std::function<void(const StepMetrics&)> callback);
    // Receives every allocation event and phase change (the recorder plugs in here).
    void setAllocationObserver(AllocationObserver* observer);
    // Skip the GEMM calibration (MFU is then reported as 0); used by tests.
    void setMeasurePeakFlops(bool measure) { m_measurePeak = measure; }
    // With the default threads: whether the process's other threads (a GUI's) count as load from
    // elsewhere for the thread governor, as other processes do, so that training gives the
    // interface a core back while it needs more than half of one. Off: the whole process counts
    // as the run's own (the CLI, where everything else in the process serves the run).
    void setYieldToInterface(bool yield) { m_yieldToInterface = yield; }
    // Makes this run one rank of a multi-process run (see ParallelEngine): options.batch_size is
    // the rank's micro batch, the rank trains on its rows of the global batch, and the losses
    // reported are those of the global batch.
    void setDistributed(std::shared_ptr<DistributedContext> context, ParallelMode mode,
                        int64_t bucket_bytes = 25 << 20);

    // Validates the options (throws ConfigError before anything runs), then runs. A cancelled run
    // or one stopped by an error returns the summary of the steps it completed.
    RunSummary run();
    void cancel() { m_cancel.request(); }

  private:
    TrainOptions m_options;
    std::function<void(const StepMetrics&)> m_onStep;
    AllocationObserver* m_observer = nullptr;
    bool m_measurePeak = true;
    bool m_yieldToInterface = false;
    CancellationToken m_cancel;
    std::shared_ptr<DistributedContext> m_context;
    ParallelMode m_parallel = ParallelMode::None;
    int64_t m_bucketBytes = 25 << 20;
};

}  // namespace memscope
