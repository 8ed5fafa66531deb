#pragma once

#include "run/train_options.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace memscope {

// One accelerator (or the host CPU) of the device database (resources/devices.yaml).
struct DeviceSpec {
    std::string name;
    std::vector<std::string> aliases;
    bool gpu = true;
    int64_t memory_bytes = 0;
    double usable_fraction = 0.9;
    double fp32_tflops = 0;
    double bf16_tflops = 0;
    double fp16_tflops = 0;
    double memory_bandwidth_gbs = 0;
    std::string interconnect;      // name of the GPU-to-GPU link
    double interconnect_gbs = 0;   // its per-GPU bandwidth, one direction
    int64_t context_bytes = 0;     // outside the allocator: runtime context, workspaces
    double reserved_factor = 1.0;  // reserved / allocated of the caching allocator

    // Dense peak FLOP/s for the run's dtype (fp32 runs use the fp32 figure; autocast runs the
    // bf16 or fp16 one). 0 when the database does not know it.
    double peakFlops(Dtype dtype) const;
    int64_t usableBytes() const { return int64_t(double(memory_bytes) * usable_fraction); }
    // What the device holds for `allocated` bytes of tensors as the planner models it: on a GPU
    // the caching allocator's reserved bytes (reserved_factor: its rounding and its segments'
    // free space) and the context outside it; on a CPU the bytes themselves.
    int64_t heldFor(int64_t allocated) const {
        return gpu ? int64_t(double(allocated) * reserved_factor + 0.5) + context_bytes : allocated;
    }
    bool matches(const std::string& text) const;  // name or alias, case-insensitive

    nlohmann::json toJson() const;
};

}  // namespace memscope
