#include "run/step_metrics.h"
#include "run/step_metrics_json.h"

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
            {"allocated_bytes_at_end", allocated_bytes_at_end},
            {"threads", threads},
            {"allocator_peak_allocated_bytes", allocator_peak_allocated_bytes},
            {"allocator_peak_reserved_bytes", allocator_peak_reserved_bytes}};
}

StepMetrics stepMetricsFromJson(const nlohmann::json& j) {
    StepMetrics s;
    s.step = j.value("step", int64_t(0));
    s.warmup = j.value("warmup", false);
    s.loss = j.value("loss", 0.0);
    s.forward_s = j.value("forward_s", 0.0);
    s.backward_s = j.value("backward_s", 0.0);
    s.optimizer_s = j.value("optimizer_s", 0.0);
    s.total_s = j.value("total_s", 0.0);
    s.peak_allocated_bytes = j.value("peak_allocated_bytes", int64_t(0));
    s.allocated_bytes_at_end = j.value("allocated_bytes_at_end", int64_t(0));
    s.threads = j.value("threads", 0);
    s.allocator_peak_allocated_bytes = j.value("allocator_peak_allocated_bytes", int64_t(-1));
    s.allocator_peak_reserved_bytes = j.value("allocator_peak_reserved_bytes", int64_t(-1));
    return s;
}

}  // namespace memscope
