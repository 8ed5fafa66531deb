#pragma once

#include "parallel_option_set.h"
#include "train_option_set.h"

#include <CLI/App.hpp>

#include <string>

namespace memscope::cli {

// `memscope-cli train`: a configuration banner, one line per step and the workshop-style
// performance summary; --summary-json writes the summary as JSON. With --nproc N (or inside a
// torchrun/srun/mpirun job) every rank trains; rank 0 prints and writes the summary.
class TrainCommand {
  public:
    explicit TrainCommand(CLI::App& parent);

    bool selected() const { return m_app->parsed(); }
    // Exit status: 0 done, 1 stopped by an error, 2 bad options, 130 interrupted.
    // In train_command_run.cpp (memscope_cli: LibTorch); the options are read without it.
    int run();

  private:
    CLI::App* m_app;
    TrainOptionSet m_options;
    ParallelOptionSet m_parallel;
    std::string m_summaryJson;
    int64_t m_logInterval = 1;
};

}  // namespace memscope::cli
