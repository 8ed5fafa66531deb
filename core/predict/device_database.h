#pragma once

#include "predict/device_spec.h"

#include <string>
#include <vector>

namespace memscope {

// The device database: accelerators and interconnects read from a YAML file
// (resources/devices.yaml). Errors name the file and the field ("devices[3].memory").
class DeviceDatabase {
  public:
    // Reads FILE; throws ConfigError.
    static DeviceDatabase load(const std::string& path);
    static DeviceDatabase parse(const std::string& yaml_text, const std::string& where);
    // $MEMSCOPE_DEVICES, then share/memscope/devices.yaml next to the executable's prefix, then
    // the source tree's resources/devices.yaml. Empty when none exists.
    static std::string defaultPath();
    // load(path) when path is given, else load(defaultPath()); throws when nothing is found.
    static DeviceDatabase loadDefault(const std::string& path = {});

    const std::vector<DeviceSpec>& devices() const { return m_devices; }
    // By name or alias, case-insensitive; nullptr when unknown.
    const DeviceSpec* find(const std::string& name) const;
    // The entry for a name as a driver reports it ("NVIDIA H100 80GB HBM3", "AMD Instinct
    // MI300X", "NVIDIA A100-SXM4-80GB"): the GPU entry one of whose names has all its words in
    // the reported name, the most words winning, then the memory closest to memory_bytes.
    // nullptr when none fits.
    const DeviceSpec* match(const std::string& reported_name, int64_t memory_bytes) const;
    std::vector<std::string> names() const;
    // Bandwidth of a named interconnect in GB/s; negative when unknown.
    double interconnectBandwidth(const std::string& name) const;
    const std::string& source() const { return m_source; }

  private:
    std::vector<DeviceSpec> m_devices;
    std::vector<std::pair<std::string, double>> m_interconnects;
    std::string m_source;
};

}  // namespace memscope
