#pragma once

#include "device/discovered_device.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace memscope {

// Every device this build can see: the host CPU (always), the GPUs LibTorch can use, and AMD
// GPUs through the HIP runtime, each matched with its entry of the device database. A kind with
// no device is not an error: its status line says why ("HIP runtime not found", "no AMD GPU",
// "LibTorch 1.13.0 is built without CUDA").
class DeviceDiscovery {
  public:
    struct Options {
        bool measure_peaks = true;  // CPU GEMM and bandwidth (about half a second, once)
        std::string hip_library;    // empty: HipRuntime's default search
        std::string device_db;      // empty: DeviceDatabase::defaultPath()
    };

    // discover() and shared() need LibTorch (memscope_core); the rest is in memscope_base.
    static DeviceDiscovery discover(const Options& options);
    static DeviceDiscovery discover() { return discover(Options{}); }
    // Discovered once per process without measuring peaks, for the GUI (the About box, the run
    // panel's device list and the Planner's default). Thread-safe.
    static const DeviceDiscovery& shared();

    const std::vector<DiscoveredDevice>& devices() const { return m_devices; }
    const std::string& cudaStatus() const { return m_cudaStatus; }
    const std::string& hipStatus() const { return m_hipStatus; }
    // The first GPU, LibTorch's before HIP's; nullptr on a CPU-only machine.
    const DiscoveredDevice* firstGpu() const;
    // The database name the planner should default to: the first GPU that has an entry, else
    // an empty string (the caller keeps its own default).
    std::string plannerDefault() const;

    // {"devices": [...], "cuda": "<status line>", "hip": "<status line>"}
    nlohmann::json toJson() const;
    // One line per device, then the CUDA and HIP status lines.
    std::string toText() const;

  private:
    std::vector<DiscoveredDevice> m_devices;
    std::string m_cudaStatus;
    std::string m_hipStatus;
};

}  // namespace memscope
