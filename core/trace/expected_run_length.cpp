#include "trace/expected_run_length.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>

namespace memscope {

size_t expectedRunTotal(const Trace& trace, size_t so_far, bool bounded) {
    const nlohmann::json& config = trace.meta.config;
    if (!config.is_object()) {
        return 0;
    }
    int64_t steps = 0;
    for (const char* key : {"num_steps", "warmup_steps"}) {
        const auto it = config.find(key);
        if (it != config.end() && it->is_number_integer()) {
            steps += std::max<int64_t>(0, it->get<int64_t>());
        }
    }
    const size_t done = trace.steps.size();
    if (done < 2 || steps <= int64_t(done) || steps > (int64_t(1) << 32)) {
        return 0;
    }
    double expected = double(so_far) / double(done) * double(steps) * 1.25;
    if (bounded && trace.meta.max_events > 0) {
        expected = std::min(expected, double(trace.meta.max_events));
    }
    return size_t(std::min(expected, 1e15));
}

}  // namespace memscope
