#include "record_command.h"

#include <CLI/Validators.hpp>

namespace memscope::cli {

RecordCommand::RecordCommand(CLI::App& parent) {
    m_app = parent.add_subcommand("record", "Train and record every allocation to a run file");
    m_options.addTo(*m_app);
    m_parallel.addTo(*m_app);
    m_app
        ->add_option("--out,-o", m_out,
                     "Run file to write (a directory of rank files when there are several ranks)")
        ->capture_default_str();
    m_app
        ->add_option("--max-events", m_maxEvents,
                     "Keep only the newest N events; the file says how many were dropped")
        ->check(CLI::NonNegativeNumber);
    m_app->add_flag("--record-shapes", m_recordShapes,
                    "Capture operator inputs (slower; like torch.profiler's record_shapes)");
    m_app->add_option("--summary-json", m_summaryJson, "Write the run summary as JSON to FILE");
    m_app->add_option("--log-interval", m_logInterval, "Print every N-th step (default 1)")
        ->check(CLI::PositiveNumber);
}

}  // namespace memscope::cli
