#pragma once

#include "parallel_option_set.h"
#include "train_option_set.h"

#include <CLI/App.hpp>

#include <string>

namespace memscope::cli {

// `memscope-cli record`: `train` with every allocation recorded into a .memscope run file.
class RecordCommand {
  public:
    explicit RecordCommand(CLI::App& parent);

    bool selected() const { return m_app->parsed(); }
    // Exit status: 0 done, 1 error, 2 bad options, 3 out of memory (file still written),
    // 130 interrupted (file still written). With --check-advice and an out-of-memory run, the
    // rerun's: 0 when the suggestion fits, 3 when it ran out of memory too.
    // In record_command_run.cpp (memscope_cli: LibTorch); the options are read without it.
    int run();

  private:
    CLI::App* m_app;
    TrainOptionSet m_options;
    ParallelOptionSet m_parallel;
    std::string m_out = "run.memscope";
    std::string m_summaryJson;
    int64_t m_maxEvents = 0;
    int64_t m_logInterval = 1;
    bool m_recordShapes = false;
    // --check-advice: after an out-of-memory run, rerun the planner's top single-process
    // suggestion under the same limit (core/predict/fit_advice.h) and compare.
    bool m_checkAdvice = false;
    int checkAdvice(const TrainOptions& options, const std::string& out);
};

}  // namespace memscope::cli
