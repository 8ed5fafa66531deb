#include "devices_command.h"

namespace memscope::cli {

DevicesCommand::DevicesCommand(CLI::App& parent) {
    m_app = parent.add_subcommand("devices", "List the CPU and the GPUs this build can see");
    m_app->add_option("--output", m_output, "Also write the list to FILE.json");
    m_app->add_flag("--json", m_json, "Print JSON instead of text");
    m_app->add_flag("--no-measure", m_noMeasure,
                    "Skip measuring the CPU's GEMM and bandwidth peaks");
    m_app->add_option("--device-db", m_deviceDb,
                      "Device database YAML to match against (default: the installed "
                      "devices.yaml, or $MEMSCOPE_DEVICES)");
}

}  // namespace memscope::cli
