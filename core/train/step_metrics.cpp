#include "train/step_metrics.h"

#include <nlohmann/json.hpp>

namespace memscope {

nlohmann::json StepMetrics::toJson() const {
    return {{"step", step},
            {"warmup", warmup},
            {"loss", loss},
            {"forward_s", forward_s},
            {"backward_s", backward_s},
            {"optimizer_s", optimizer_s},
            {"total_s", total_s},
            {"peak_allocated_bytes", peak_allocated_bytes},
            {"allocated_bytes_at_end", allocated_bytes_at_end}};
}

}  // namespace memscope
