#pragma once

#include "run/step_metrics.h"

#include <nlohmann/json_fwd.hpp>

namespace memscope {

// The inverse of StepMetrics::toJson() for readers of stored runs (run files, journals): missing
// fields take their defaults. Kept out of step_metrics.h, which nearly every file includes.
StepMetrics stepMetricsFromJson(const nlohmann::json& j);

}  // namespace memscope
