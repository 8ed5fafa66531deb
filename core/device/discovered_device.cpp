#include "device/discovered_device.h"

#include "device/device_discovery.h"

#include "run/run_summary.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>

namespace memscope {

nlohmann::json DiscoveredDevice::toJson() const {
    nlohmann::json j = {{"kind", kind},
                        {"index", index},
                        {"name", name},
                        {"total_memory_bytes", total_memory_bytes},
                        {"free_memory_bytes", nullptr},
                        {"torch_device", torch_device},
                        {"database", nullptr}};
    if (free_memory_bytes >= 0) {
        j["free_memory_bytes"] = free_memory_bytes;
    }
    if (kind == "hip") {
        j["arch"] = arch;
    }
    if (kind == "cpu") {
        j["cores"] = cores;
        j["peak_flops_per_s"] = peak_flops;
        j["peak_flops_method"] = peak_flops_method;
        j["peak_bandwidth_bytes_per_s"] = peak_bandwidth;
        j["peak_bandwidth_method"] = peak_bandwidth_method;
    }
    if (database_entry) {
        j["database"] = database_entry->toJson();
    }
    return j;
}

std::string DiscoveredDevice::toText() const {
    std::ostringstream out;
    const std::string label = kind == "hip"   ? "hip:" + std::to_string(index)
                              : kind == "cpu" ? std::string("cpu")
                                              : "cuda:" + std::to_string(index);
    out << label << "  " << name;
    if (!arch.empty()) {
        out << " (" << arch << ")";
    }
    out << ": ";
    if (kind == "cpu") {
        out << cores << (cores == 1 ? " core, " : " cores, ");
    }
    out << (total_memory_bytes > 0 ? formatBytes(total_memory_bytes) : std::string("? bytes"))
        << (kind == "cpu" ? " memory" : "");
    if (free_memory_bytes >= 0) {
        out << ", " << formatBytes(free_memory_bytes) << (kind == "cpu" ? " available" : " free");
    }
    if (peak_flops > 0) {
        char text[64];
        std::snprintf(text, sizeof text, "%.1f GFLOP/s", peak_flops / 1e9);
        out << "; measured " << text << " fp32 GEMM";
    }
    if (peak_bandwidth > 0) {
        char text[64];
        std::snprintf(text, sizeof text, "%.1f GB/s", peak_bandwidth / 1e9);
        out << ", " << text << " triad bandwidth";
    }
    out << "  [database: " << (database_entry ? database_entry->name : std::string("no entry"))
        << "]";
    return out.str();
}

// DeviceDiscovery's members that need no LibTorch (discover() and shared() are in memscope_core's
// device_discovery.cpp): the GUI reads the discovery its LibTorch part made (issue 31).

const DiscoveredDevice* DeviceDiscovery::firstGpu() const {
    for (const auto& device : m_devices) {
        if (device.isGpu()) {
            return &device;
        }
    }
    return nullptr;
}

std::string DeviceDiscovery::plannerDefault() const {
    for (const auto& device : m_devices) {
        if (device.isGpu() && device.database_entry) {
            return device.database_entry->name;
        }
    }
    return {};
}

nlohmann::json DeviceDiscovery::toJson() const {
    auto list = nlohmann::json::array();
    for (const auto& device : m_devices) {
        list.push_back(device.toJson());
    }
    return {{"devices", list}, {"cuda", m_cudaStatus}, {"hip", m_hipStatus}};
}

std::string DeviceDiscovery::toText() const {
    std::ostringstream out;
    for (const auto& device : m_devices) {
        out << device.toText() << "\n";
    }
    out << "CUDA: " << m_cudaStatus << "\n";
    out << "HIP: " << m_hipStatus << "\n";
    return out.str();
}

}  // namespace memscope
