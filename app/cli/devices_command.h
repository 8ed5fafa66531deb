#pragma once

#include <CLI/App.hpp>

#include <string>

namespace memscope::cli {

// `memscope-cli devices`: every device this build can see (the CPU with measured peaks, LibTorch's
// GPUs, AMD GPUs through the HIP runtime), each with its entry of the device database, and one
// status line each for CUDA and HIP. --output FILE.json writes the same as JSON.
class DevicesCommand {
  public:
    explicit DevicesCommand(CLI::App& parent);

    bool selected() const { return m_app->parsed(); }
    // Exit status: 0 listed, 1 cannot write --output, 2 bad option.
    // In devices_command_run.cpp (memscope_cli: LibTorch); the options are read without it.
    int run();

  private:
    CLI::App* m_app;
    std::string m_output;
    std::string m_deviceDb;
    bool m_json = false;
    bool m_noMeasure = false;
};

}  // namespace memscope::cli
