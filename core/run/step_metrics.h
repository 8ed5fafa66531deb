#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>

namespace memscope {

// One training (or forward-only) step as the trainer measured it.
struct StepMetrics {
    int64_t step = 0;  // 1-based, warmup steps included
    bool warmup = false;
    double loss = 0;
    double forward_s = 0;
    double backward_s = 0;
    double optimizer_s = 0;
    double total_s = 0;
    int64_t peak_allocated_bytes = 0;
    int64_t allocated_bytes_at_end = 0;
    // CPU threads the step trained on (the thread governor may lower them while other work
    // keeps cores busy); 0 on a GPU and in runs recorded before Memscope kept it.
    int threads = 0;
    // A GPU's caching allocator's own figures for the step (torch.cuda.max_memory_allocated and
    // max_memory_reserved with the peaks reset at the step's start); -1 where there is none.
    // They count everything the allocator holds, also what was allocated before the run.
    int64_t allocator_peak_allocated_bytes = -1;
    int64_t allocator_peak_reserved_bytes = -1;

    nlohmann::json toJson() const;
};

}  // namespace memscope
