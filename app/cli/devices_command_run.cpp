#include "devices_command.h"

#include "cli_support.h"
#include "device/device_discovery.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>

namespace memscope::cli {

int DevicesCommand::run() {
    if (!m_output.empty() &&
        (m_output.size() < 5 || m_output.substr(m_output.size() - 5) != ".json")) {
        return reportUsageError("--output: the list is written as JSON; name a .json file, not '" +
                                m_output + "'");
    }
    DeviceDiscovery::Options options;
    options.measure_peaks = !m_noMeasure;
    options.device_db = m_deviceDb;
    const auto discovery = DeviceDiscovery::discover(options);
    const auto json = discovery.toJson();
    if (m_json) {
        std::cout << json.dump(2) << "\n";
    } else {
        std::cout << discovery.toText();
    }
    if (!m_output.empty()) {
        std::ofstream out(m_output);
        out << json.dump(2) << "\n";
        if (!out) {
            return fail("--output: cannot write '" + m_output + "'");
        }
        std::cerr << "Wrote " << m_output << "\n";
    }
    return 0;
}

}  // namespace memscope::cli
