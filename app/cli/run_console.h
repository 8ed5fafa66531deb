#pragma once

#include "device/device_info.h"
#include "train/step_metrics.h"
#include "train/train_options.h"

#include <functional>

namespace memscope::cli {

// What `train` and `record` print while a run goes: the configuration banner and the per-step
// lines of the workshop script.
class RunConsole {
  public:
    static void printBanner(const TrainOptions& options, const DeviceInfo& device);
    // A step callback printing every interval-th step (and the first and last).
    static std::function<void(const StepMetrics&)> stepPrinter(int64_t total_steps,
                                                               int64_t interval);
};

}  // namespace memscope::cli
