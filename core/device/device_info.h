#pragma once

#include <c10/core/Device.h>

#include <string>

namespace memscope {

// What Memscope knows about the device a run uses.
struct DeviceInfo {
    c10::Device device{c10::DeviceType::CPU};
    std::string name;          // "Intel(R) Xeon(R) ..." or "cuda:0"
    std::string backend;       // "cpu", "cuda", "rocm"
    int64_t total_memory = 0;  // bytes; 0 when unknown

    // Parses "cpu", "cuda" or "cuda:N" and checks that LibTorch can use it; throws ConfigError
    // naming --device otherwise.
    static DeviceInfo describe(const std::string& spec);
    static bool gpuAvailable();
    static std::string cpuModelName();
    static int64_t hostMemoryBytes();
};

}  // namespace memscope
