#pragma once

#include <CLI/App.hpp>

#include <string>

namespace memscope::cli {

// `memscope-cli import SNAPSHOT.pickle --out RUN.memscope [--device N]`: converts a PyTorch
// memory snapshot (torch.cuda.memory._dump_snapshot()) into a run file and prints a short
// summary. Exit status: 0 done, 1 the snapshot or the run file failed, 2 bad options.
class ImportCommand {
  public:
    explicit ImportCommand(CLI::App& parent);

    bool selected() const { return m_app->parsed(); }
    int run();

  private:
    CLI::App* m_app;
    std::string m_snapshot;
    std::string m_out;
    int m_device = -1;
};

}  // namespace memscope::cli
