#pragma once

#include "predict/memory_component.h"
#include "run/phase.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>

namespace memscope {

// The predicted memory of one training (or forward-only) step: its peak with the breakdown at
// that moment, the peak of each phase, and the live bytes at the end of the forward pass.
struct StepPrediction {
    int64_t peak = 0;
    Phase peak_phase = Phase::Other;
    ComponentBytes at_peak{};
    int64_t forward_peak = 0;
    int64_t backward_peak = 0;
    int64_t optimizer_peak = 0;
    int64_t end_of_forward = 0;
    ComponentBytes at_end_of_forward{};

    nlohmann::json toJson() const;
};

}  // namespace memscope
