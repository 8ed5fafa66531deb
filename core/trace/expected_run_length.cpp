#include "trace/expected_run_length.h"

#include "trace/recorded_options.h"

#include <algorithm>
#include <cstdint>

namespace memscope {

size_t expectedRunTotal(const Trace& trace, size_t so_far, bool bounded) {
    const auto options = recordedOptions(trace.meta);
    if (!options) {
        return 0;
    }
    const int64_t steps =
        std::max<int64_t>(0, options->num_steps) + std::max<int64_t>(0, options->warmup_steps);
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
