#pragma once

#include <CLI/App.hpp>

#include <string>

namespace memscope::cli {

// `memscope-cli import SNAPSHOT.pickle --out RUN.memscope [--device N|host] [--range A:B]
// [--config FILE]`: converts a PyTorch memory snapshot (torch.cuda.memory._dump_snapshot()) into
// a run file and prints a short summary. A snapshot carries no configuration: --config gives the
// one its job ran with (model, batch, context length, dtype, profile), so that `report` puts the
// run into the tables that group runs by them, as it does recordings. On a terminal stderr shows
// the bytes read as a percentage; Ctrl-C cancels. Exit status: 0 done, 1 the snapshot or the run
// file failed (or the import was cancelled), 2 bad options.
class ImportCommand {
  public:
    explicit ImportCommand(CLI::App& parent);

    bool selected() const { return m_app->parsed(); }
    int run();

  private:
    CLI::App* m_app;
    std::string m_snapshot;
    std::string m_out;
    std::string m_device;  // a CUDA device index, "host" (pinned host memory) or "" (the default)
    std::string m_range;
    std::string m_config;
};

}  // namespace memscope::cli
