#pragma once

#include "capture/allocation_hook.h"
#include "model/cancellation.h"
#include "train/run_summary.h"
#include "train/train_options.h"

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

    // Validates the options (throws ConfigError before anything runs), then runs. A cancelled run
    // or one stopped by an error returns the summary of the steps it completed.
    RunSummary run();
    void cancel() { m_cancel.request(); }

  private:
    TrainOptions m_options;
    std::function<void(const StepMetrics&)> m_onStep;
    AllocationObserver* m_observer = nullptr;
    bool m_measurePeak = true;
    CancellationToken m_cancel;
};

}  // namespace memscope
