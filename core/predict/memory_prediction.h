#pragma once

#include "predict/step_prediction.h"

#include <nlohmann/json_fwd.hpp>

namespace memscope {

// What MemoryModel predicts for a run: the bytes after initialisation, the first step (AdamW
// creates its state during it) and the steady state (every later step) separately.
struct MemoryPrediction {
    int64_t parameters = 0;  // count, not bytes
    int64_t init_bytes = 0;
    StepPrediction first_step;
    StepPrediction steady_step;

    // The run's peak: the larger of the two steps (and the initialisation).
    int64_t peak() const;
    const StepPrediction& peakStep() const;

    nlohmann::json toJson() const;
};

}  // namespace memscope
