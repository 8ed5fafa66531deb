#pragma once

#include "device/device_info.h"
#include "run/step_metrics.h"
#include "run/train_options.h"

#include <functional>

namespace memscope {
class DistributedContext;
}

namespace memscope::cli {

// What `train` and `record` print while a run goes: the configuration banner and the per-step
// lines of the workshop script.
class RunConsole {
  public:
    static void printBanner(const TrainOptions& options, const DeviceInfo& device);
    // Whether this process leads the run (a single process, or rank 0 of many); the lead prints
    // the banner, the other ranks stay quiet.
    static bool announce(const DistributedContext* context, const TrainOptions& options,
                         const DeviceInfo& device);
    // A step callback printing every interval-th step (and the first and last).
    static std::function<void(const StepMetrics&)> stepPrinter(int64_t total_steps,
                                                               int64_t interval);
};

}  // namespace memscope::cli
