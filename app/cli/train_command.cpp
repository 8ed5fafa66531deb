#include "train_command.h"

#include <CLI/Validators.hpp>

namespace memscope::cli {

TrainCommand::TrainCommand(CLI::App& parent) {
    m_app = parent.add_subcommand("train", "Train Tiny LLaMA and print a performance summary");
    m_options.addTo(*m_app);
    m_parallel.addTo(*m_app);
    m_app->add_option("--summary-json", m_summaryJson, "Write the run summary as JSON to FILE");
    m_app->add_option("--log-interval", m_logInterval, "Print every N-th step (default 1)")
        ->check(CLI::PositiveNumber);
}

}  // namespace memscope::cli
