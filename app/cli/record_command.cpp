#include "record_command.h"

#include <CLI/Validators.hpp>
#include "model/train_option_table.h"
#include "run/recorder_option_table.h"

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
    m_app->add_flag("--check-advice", m_checkAdvice,
                    "With " + TrainOptionTable::flag("device_memory_limit") +
                        ": when the run runs out of memory, list the smallest single changes the "
                        "planner predicts to fit, rerun the top one under the same limit and "
                        "print its measured peak beside the prediction");
    m_app->add_option("--log-interval", m_logInterval, "Print every N-th step (default 1)")
        ->check(CLI::PositiveNumber);
    // Parsed apart (app/cli/python_record.h): everything after --python is the program's.
    m_app->footer(
        "Record a Python program instead of the built-in trainer:\n"
        "  record [OPTIONS] [--python-exe EXE (default python3)] [--fit SWEEPDIR --check-advice]\n"
        "         --python (SCRIPT.py | -m MODULE) [ARGS...]\n"
        "The recorder's OPTIONS (python -m memscope record takes the same):\n" +
        RecorderOptionTable::help("  ") +
        "The exit status is the program's; a program killed before it saved is recovered from\n"
        "its journal. --fit names a sweep of the program (sweep --python): after an out-of-memory\n"
        "under the limit, --check-advice reruns the largest batch or context its fit says fits.");
}

}  // namespace memscope::cli
