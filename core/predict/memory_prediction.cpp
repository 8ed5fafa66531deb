#include "predict/memory_prediction.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace memscope {

int64_t MemoryPrediction::peak() const {
    return std::max({init_bytes, first_step.peak, steady_step.peak});
}

const StepPrediction& MemoryPrediction::peakStep() const {
    return steady_step.peak >= first_step.peak ? steady_step : first_step;
}

nlohmann::json MemoryPrediction::toJson() const {
    return {{"parameters", parameters},
            {"init_bytes", init_bytes},
            {"peak_bytes", peak()},
            {"first_step", first_step.toJson()},
            {"steady_step", steady_step.toJson()}};
}

}  // namespace memscope
