#pragma once

#include "predict/device_spec.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace memscope {

// One device Memscope can see: the host CPU, a GPU LibTorch can use ("cuda", which is also how
// a ROCm LibTorch names AMD GPUs), or an AMD GPU seen through the HIP runtime ("hip").
struct DiscoveredDevice {
    std::string kind;          // "cpu", "cuda" or "hip"
    int index = 0;             // ordinal within its kind
    std::string name;          // "NVIDIA H100 80GB HBM3", "AMD Instinct MI300X", CPU model
    std::string arch;          // hip: gcnArchName ("gfx942:sramecc+:xnack-")
    std::string torch_device;  // what --device takes ("cpu", "cuda:0"); empty: not usable
    int64_t total_memory_bytes = 0;
    int64_t free_memory_bytes = -1;  // -1: unknown
    // cpu only
    int cores = 0;
    double peak_flops = 0;  // measured fp32 GEMM FLOP/s; 0: not measured
    std::string peak_flops_method;
    double peak_bandwidth = 0;  // measured triad bytes/s; 0: not measured
    std::string peak_bandwidth_method;
    // The matching entry of the device database (resources/devices.yaml), if any.
    std::optional<DeviceSpec> database_entry;

    bool isGpu() const { return kind != "cpu"; }
    // {"kind", "index", "name", "total_memory_bytes", "free_memory_bytes" (null when unknown),
    //  "torch_device", "arch" (hip), "cores"/"peak_flops_per_s"/"peak_bandwidth_bytes_per_s"
    //  (cpu), "database": entry or null}
    nlohmann::json toJson() const;
    // One line for a console: "cuda:0  NVIDIA H100 80GB HBM3: 79.1 GiB, 78.6 GiB free ..."
    std::string toText() const;
};

}  // namespace memscope
