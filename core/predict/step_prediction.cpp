#include "predict/step_prediction.h"

#include <nlohmann/json.hpp>

namespace memscope {

namespace {
nlohmann::json componentsJson(const ComponentBytes& bytes) {
    nlohmann::json j = nlohmann::json::object();
    for (int i = 0; i < kMemoryComponentCount; ++i) {
        j[toString(static_cast<MemoryComponent>(i))] = bytes[i];
    }
    return j;
}
}  // namespace

nlohmann::json StepPrediction::toJson() const {
    return {{"peak_bytes", peak},
            {"peak_phase", toString(peak_phase)},
            {"bytes_at_peak", componentsJson(at_peak)},
            {"forward_peak_bytes", forward_peak},
            {"backward_peak_bytes", backward_peak},
            {"optimizer_peak_bytes", optimizer_peak},
            {"end_of_forward_bytes", end_of_forward},
            {"bytes_at_end_of_forward", componentsJson(at_end_of_forward)}};
}

}  // namespace memscope
