#include "device/device_discovery.h"

#include "device/device_info.h"
#include "device/hip_runtime.h"
#include "device/peak_bandwidth.h"
#include "device/peak_flops.h"
#include "predict/device_database.h"
#include "torch_compat.h"

#include <ATen/Parallel.h>
#include <torch/cuda.h>
#include <torch/version.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

namespace memscope {

namespace {

int64_t hostAvailableBytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    int64_t kib = 0;
    while (meminfo >> key >> kib) {
        if (key == "MemAvailable:") {
            return kib * 1024;
        }
        meminfo.ignore(256, '\n');
    }
    return -1;
}

int hostCores() {
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (online > 0) {
        return static_cast<int>(online);
    }
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

DiscoveredDevice discoverCpu(bool measure) {
    DiscoveredDevice cpu;
    cpu.kind = "cpu";
    cpu.name = DeviceInfo::cpuModelName();
    cpu.torch_device = "cpu";
    cpu.cores = hostCores();
    cpu.total_memory_bytes = DeviceInfo::hostMemoryBytes();
    cpu.free_memory_bytes = hostAvailableBytes();
    if (measure) {
        // Peaks with every core, as a run with the default thread count uses them.
        const int previous = at::get_num_threads();
        at::set_num_threads(cpu.cores);
        const c10::Device device(c10::DeviceType::CPU);
        const auto flops = PeakFlops::measure(device, Dtype::Float32, cpu.cores);
        const auto bandwidth = PeakBandwidth::measure(device, cpu.cores);
        at::set_num_threads(previous);
        cpu.peak_flops = flops.flops_per_s;
        cpu.peak_flops_method = flops.method;
        cpu.peak_bandwidth = bandwidth.bytes_per_s;
        cpu.peak_bandwidth_method = bandwidth.method;
    }
    return cpu;
}

#if defined(MEMSCOPE_WITH_ROCM) && MEMSCOPE_WITH_ROCM
constexpr bool k_rocm_torch = true;
#else
constexpr bool k_rocm_torch = false;
#endif

}  // namespace

DeviceDiscovery DeviceDiscovery::discover(const Options& options) {
    DeviceDiscovery d;
    d.m_devices.push_back(discoverCpu(options.measure_peaks));

    // LibTorch's GPUs. A ROCm LibTorch calls AMD GPUs "cuda" too.
    const std::string torch_name = std::string("LibTorch ") + TORCH_VERSION;
    const int torch_gpus = static_cast<int>(torch::cuda::device_count());
    for (int i = 0; i < torch_gpus; ++i) {
        DiscoveredDevice gpu;
        gpu.kind = "cuda";
        gpu.index = i;
        gpu.torch_device = "cuda:" + std::to_string(i);
        gpu.name = compat::deviceName(i);
        if (gpu.name.empty()) {
            gpu.name = gpu.torch_device;
        }
        if (const auto memory = compat::deviceMemoryInfo(i); memory.valid) {
            gpu.total_memory_bytes = memory.total_bytes;
            gpu.free_memory_bytes = memory.free_bytes;
        }
        d.m_devices.push_back(std::move(gpu));
    }
    if (torch_gpus > 0) {
        d.m_cudaStatus = torch_name + ": " + std::to_string(torch_gpus) +
                         (torch_gpus == 1 ? " GPU" : " GPUs") +
                         (k_rocm_torch ? " (ROCm build)" : "");
    } else if (compat::k_with_cuda) {
        d.m_cudaStatus = "no CUDA device: " + torch_name + " has CUDA but sees no GPU";
    } else if (k_rocm_torch) {
        d.m_cudaStatus = "no CUDA device: " + torch_name + " is a ROCm build and sees no GPU";
    } else {
        d.m_cudaStatus = "no CUDA device: " + torch_name + " is built without CUDA";
    }

    // AMD GPUs through the HIP runtime, whatever LibTorch was built with.
    const auto hip = HipRuntime::query(options.hip_library);
    d.m_hipStatus = hip.statusLine();
    for (const auto& h : hip.devices) {
        DiscoveredDevice gpu;
        gpu.kind = "hip";
        gpu.index = h.index;
        gpu.name = h.name;
        gpu.arch = h.arch;
        gpu.total_memory_bytes = h.total_bytes;
        gpu.free_memory_bytes = h.free_bytes;
        // A ROCm LibTorch numbers the same GPUs in the same order.
        if (k_rocm_torch && h.index < torch_gpus) {
            gpu.torch_device = "cuda:" + std::to_string(h.index);
        }
        d.m_devices.push_back(std::move(gpu));
    }

    // The database is optional here: without one the devices are listed unmatched.
    try {
        const auto db = DeviceDatabase::loadDefault(options.device_db);
        for (auto& device : d.m_devices) {
            const auto* spec = device.kind == "cpu"
                                   ? db.find("CPU")
                                   : db.match(device.name, device.total_memory_bytes);
            if (spec) {
                device.database_entry = *spec;
            }
        }
    } catch (const std::exception&) {
    }
    return d;
}

const DeviceDiscovery& DeviceDiscovery::shared() {
    static const DeviceDiscovery discovery = [] {
        Options options;
        options.measure_peaks = false;
        return discover(options);
    }();
    return discovery;
}

}  // namespace memscope
