#include "record_command.h"

#include "capture/recording_session.h"
#include "cli_support.h"
#include "io/run_file.h"
#include "io/run_journal.h"
#include "model/config_error.h"
#include "run_console.h"
#include "trace/trace_summary.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <thread>

namespace memscope::cli {

RecordCommand::RecordCommand(CLI::App& parent) {
    m_app = parent.add_subcommand("record", "Train and record every allocation to a run file");
    m_options.addTo(*m_app);
    m_app->add_option("--out,-o", m_out, "Run file to write")->capture_default_str();
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

int RecordCommand::run() {
    TrainOptions options;
    DeviceInfo device;
    try {
        options = m_options.resolve();
        device = DeviceInfo::describe(options.device);
    } catch (const ConfigError& e) {
        return reportUsageError(e.what());
    }
    {
        std::ofstream probe(m_out, std::ios::app);
        if (!probe) {
            return reportUsageError("--out: cannot write '" + m_out + "'");
        }
    }
    RunConsole::printBanner(options, device);

    Recorder::Options recorder_options;
    recorder_options.max_events = m_maxEvents;
    recorder_options.record_shapes = m_recordShapes;
    RecordingSession session(options, recorder_options);
    session.setStepCallback(
        RunConsole::stepPrinter(options.num_steps + options.warmup_steps, m_logInterval));
    InterruptForwarder interrupt([&session] { session.cancel(); });
    std::cout << "Recording " << (options.training() ? "training" : "forward-only runs") << "...\n";
    // Streamed to OUT.journal while it runs: `memscope-cli recover OUT` if this process dies.
    session.setJournal(RunJournal::pathFor(m_out));
    // MEMSCOPE_JOURNAL_LOG=1 prints each sync (tests compare it with what recover finds).
    const bool log_journal = std::getenv("MEMSCOPE_JOURNAL_LOG") != nullptr;
    int64_t synced = 0;
    try {
        session.start();
    } catch (const std::exception& e) {
        std::cerr << "memscope-cli: error: " << e.what() << "\n";
        return 1;
    }
    while (session.running()) {
        session.poll();  // keep the recorder's buffers small, as the GUI does
        if (log_journal && session.journal() && session.journal()->eventsSynced() != synced) {
            synced = session.journal()->eventsSynced();
            std::cerr << "journal: " << synced << " events synced\n";
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    const RunSummary& summary = session.finish();
    if (!session.journalError().empty()) {
        std::cerr << "memscope-cli: warning: the journal was dropped: " << session.journalError()
                  << "\n";
    }
    Trace& trace = session.trace();

    std::cout << "\n" << summary.toText() << "\n";
    std::cout << TraceSummary::toText(trace, trace.summary, 5);
    try {
        RunFile::save(trace, m_out);
        session.discardJournal();
    } catch (const std::exception& e) {
        std::cerr << "memscope-cli: error: " << e.what() << "\n";
        return 1;
    }
    std::cout << "\nWrote " << m_out << " (" << trace.events.count() << " events";
    if (trace.meta.dropped_events > 0) {
        std::cout << ", " << trace.meta.dropped_events << " older events dropped";
    }
    std::cout << ")\n";
    if (!m_summaryJson.empty()) {
        std::ofstream out(m_summaryJson);
        if (!out) {
            std::cerr << "memscope-cli: error: --summary-json: cannot write '" << m_summaryJson
                      << "'\n";
            return 1;
        }
        out << trace.summary.dump(2) << "\n";
    }
    if (summary.cancelled)
        return 130;
    if (summary.out_of_memory)
        return 3;
    return summary.error.empty() ? 0 : 1;
}

}  // namespace memscope::cli
