#include "device/device_info.h"

#include "model/config_error.h"
#include "model/train_option_table.h"

#include <torch/cuda.h>
#include <torch/version.h>

#include <fstream>
#include <sstream>

namespace memscope {

bool DeviceInfo::gpuAvailable() {
    return torch::cuda::is_available();
}

std::string DeviceInfo::cpuModelName() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) {
                return line.substr(line.find_first_not_of(' ', colon + 1));
            }
        }
    }
    return "CPU";
}

int64_t DeviceInfo::hostMemoryBytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    int64_t kib = 0;
    while (meminfo >> key >> kib) {
        if (key == "MemTotal:") {
            return kib * 1024;
        }
        meminfo.ignore(256, '\n');
    }
    return 0;
}

DeviceInfo DeviceInfo::describe(const std::string& spec) {
    DeviceInfo info;
    if (spec == "cpu") {
        info.device = c10::Device(c10::DeviceType::CPU);
        info.name = cpuModelName();
        info.backend = "cpu";
        info.total_memory = hostMemoryBytes();
        return info;
    }
    if (spec.rfind("cuda", 0) != 0) {
        throw ConfigError(TrainOptionTable::flag("device"),
                          "unknown device '" + spec + "' (use cpu, cuda or cuda:N)");
    }
    if (!gpuAvailable()) {
#if defined(MEMSCOPE_WITH_CUDA) || defined(MEMSCOPE_WITH_ROCM)
        throw ConfigError(TrainOptionTable::flag("device"),
                          "'" + spec + "' requested but this LibTorch (" + TORCH_VERSION +
                              ", built for GPUs) sees no GPU on this machine (no "
                              "device, or no driver)");
#else
        throw ConfigError(TrainOptionTable::flag("device"),
                          "'" + spec + "' requested but this LibTorch (" + TORCH_VERSION +
                              ") is CPU-only, as Debian's is: build against a CUDA "
                              "or ROCm LibTorch (Torch_DIR, or --torch pip)");
#endif
    }
    int index = 0;
    if (spec.size() > 5 && spec[4] == ':') {
        try {
            index = std::stoi(spec.substr(5));
        } catch (const std::exception&) {
            throw ConfigError(TrainOptionTable::flag("device"),
                              "bad device index in '" + spec + "'");
        }
    }
    const auto count = static_cast<int>(torch::cuda::device_count());
    if (index < 0 || index >= count) {
        throw ConfigError(
            TrainOptionTable::flag("device"),
            "'" + spec + "' does not exist (" + std::to_string(count) + " GPU(s) visible)");
    }
    info.device = c10::Device(c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(index));
    info.name = "cuda:" + std::to_string(index);
    info.backend = "cuda";
    return info;
}

}  // namespace memscope
