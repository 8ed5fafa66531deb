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
