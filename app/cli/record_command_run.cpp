#include "record_command.h"

#include "capture/recording_session.h"
#include "cli_support.h"
#include "explain/trace_summary.h"
#include "io/run_directory.h"
#include "io/run_file.h"
#include "io/run_journal.h"
#include "model/config_error.h"
#include "model/train_option_table.h"
#include "predict/fit_advice.h"
#include "predict/memory_model.h"
#include "rank_launcher.h"
#include "run_console.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

namespace memscope::cli {

namespace {

RunDirectory manifest(const TrainOptions& options, int world_size, const std::string& parallel) {
    RunDirectory run;
    run.world_size = world_size;
    run.parallel = parallel;
    run.global_batch_size = options.batch_size * world_size;
    for (int r = 0; r < world_size; ++r) {
        run.rank_files.push_back(RunDirectory::rankFileName(r));
    }
    return run;
}

}  // namespace

int RecordCommand::run() {
    namespace fs = std::filesystem;
    TrainOptions options;
    DeviceInfo device;
    std::shared_ptr<DistributedContext> context;
    std::string out = m_out;
    try {
        options = m_options.resolve();
        const auto role = m_parallel.resolve(options);
        if (m_checkAdvice && options.device_memory_limit <= 0) {
            throw ConfigError("--check-advice",
                              "needs " + TrainOptionTable::argument("device_memory_limit", "SIZE") +
                                  ": the limit the advice must fit");
        }
        if (m_checkAdvice && role != ParallelOptionSet::Role::Single) {
            throw ConfigError("--check-advice", "checks the advice of a run of one process");
        }
        device = DeviceInfo::describe(options.device);
        const bool ranks =
            role == ParallelOptionSet::Role::Launcher ||
            (role == ParallelOptionSet::Role::Rank && m_parallel.environment()->world_size > 1);
        if (ranks) {
            // Several ranks record into a run directory (io/run_directory.h).
            std::error_code ec;
            if (fs::exists(m_out, ec) && !fs::is_directory(m_out, ec)) {
                throw ConfigError("--out", "'" + m_out +
                                               "' is a file; a run of several ranks "
                                               "writes a directory there");
            }
            fs::create_directories(m_out, ec);
            if (ec || !fs::is_directory(m_out)) {
                throw ConfigError("--out", "cannot create the directory '" + m_out + "'");
            }
        }
        if (role == ParallelOptionSet::Role::Launcher) {
            // The manifest first, so the run opens whichever ranks get to save their files.
            try {
                manifest(options, m_parallel.nproc(), toString(m_parallel.mode())).save(m_out);
            } catch (const std::exception& e) {
                throw ConfigError("--out", e.what());
            }
            return RankLauncher::run(m_parallel.nproc(), m_parallel.masterPort(),
                                     m_parallel.commTimeoutSeconds());
        }
        if (ranks) {
            out = (fs::path(m_out) / RunDirectory::rankFileName(m_parallel.environment()->rank))
                      .string();
        }
        {
            // Writable? A file made only to find out is removed again: a rank that dies
            // before it saves must leave no (empty) rank file behind.
            std::error_code ec;
            const bool existed = fs::exists(out, ec);
            std::ofstream probe(out, std::ios::app);
            if (!probe) {
                throw ConfigError("--out", "cannot write '" + out + "'");
            }
            probe.close();
            if (!existed) {
                fs::remove(out, ec);
            }
        }
        if (role == ParallelOptionSet::Role::Rank) {
            context = m_parallel.connect(device);
        }
    } catch (const ConfigError& e) {
        return reportUsageError(e.what());
    }
    const bool lead = RunConsole::announce(context.get(), options, device);

    Recorder::Options recorder_options;
    recorder_options.max_events = m_maxEvents;
    recorder_options.record_shapes = m_recordShapes;
    RecordingSession session(options, recorder_options);
    session.setDistributed(context, m_parallel.mode(), m_parallel.bucketBytes());
    if (lead) {
        session.setStepCallback(
            RunConsole::stepPrinter(options.num_steps + options.warmup_steps, m_logInterval));
    }
    InterruptForwarder interrupt([&session] { session.cancel(); });
    if (lead) {
        std::cout << "Recording " << (options.training() ? "training" : "forward-only runs")
                  << "...\n";
    }
    // Streamed to OUT.journal while it runs: `memscope-cli recover OUT` if this process dies.
    session.setJournal(RunJournal::pathFor(out));
    // MEMSCOPE_JOURNAL_LOG=1 prints each sync (tests compare it with what recover finds).
    const bool log_journal = std::getenv("MEMSCOPE_JOURNAL_LOG") != nullptr;
    int64_t synced = 0;
    try {
        session.start();
    } catch (const std::exception& e) {
        return fail(e.what());
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
    const bool multi = context && context->worldSize() > 1;
    if (context && summary.error.empty() && !summary.cancelled) {
        const auto multi_summary = ParallelOptionSet::multiRankSummary(summary, *context);
        trace.summary["world_size"] = multi_summary["world_size"];
        trace.summary["parallel"] = multi_summary["parallel"];
        trace.summary["global_batch_size"] = multi_summary["global_batch_size"];
        if (multi_summary.contains("ranks")) {
            trace.summary["ranks"] = multi_summary["ranks"];
        }
    }

    if (lead) {
        std::cout << "\n" << summary.toText() << "\n";
        std::cout << TraceSummary::toText(trace, trace.summary, 5);
        if (summary.out_of_memory && summary.steps.empty() && options.device_memory_limit > 0) {
            // Out of memory before the first step: the limit is below what the model holds.
            std::cout << TrainOptionTable::argument("device_memory_limit",
                                                    formatBytes(options.device_memory_limit))
                      << " is below what this run holds before its first step";
            try {
                std::cout << " (the model: "
                          << formatBytes(MemoryModel::predict(options).init_bytes)
                          << " by the planner)";
            } catch (const std::exception&) {
                // a configuration the planner does not model: the sentence without the figure
            }
            std::cout << ": no step ran.\n";
        }
    } else if (!summary.error.empty()) {
        fail("rank " + std::to_string(summary.rank) + ": " + summary.error);
    }
    try {
        RunFile::save(trace, out);
        session.discardJournal();
        if (multi && context->rank() == 0) {
            manifest(options, context->worldSize(), summary.parallel).save(m_out);
        }
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    if (lead) {
        std::cout << "\nWrote " << (multi ? m_out + " (rank 0: " + out + ", " : out + " (")
                  << trace.events.count() << " events";
        if (trace.meta.dropped_events > 0) {
            std::cout << ", " << trace.meta.dropped_events << " older events dropped";
        }
        std::cout << ")\n";
    }
    if (lead && !m_summaryJson.empty()) {
        std::ofstream out(m_summaryJson);
        if (!out) {
            return fail("--summary-json: cannot write '" + m_summaryJson + "'");
        }
        out << trace.summary.dump(2) << "\n";
    }
    if (summary.cancelled)
        return 130;
    if (summary.out_of_memory && m_checkAdvice) {
        return checkAdvice(options, out);
    }
    if (summary.out_of_memory)
        return 3;
    return summary.error.empty() ? 0 : 1;
}

int RecordCommand::checkAdvice(const TrainOptions& options, const std::string& out) {
    const int64_t limit = options.device_memory_limit;
    std::vector<FitAdvice::Suggestion> advice;
    try {
        std::cout << "\nThe planner predicts " << formatBytes(FitAdvice::predictedPeak(options))
                  << " for this run; the limit is " << formatBytes(limit) << ".\n";
        advice = FitAdvice::suggest(options, limit);
    } catch (const std::exception& e) {
        return fail(std::string("--check-advice: the planner cannot model this run: ") + e.what());
    }
    std::cout << FitAdvice::toText(advice, limit);
    const FitAdvice::Suggestion* top = FitAdvice::topSingleProcess(advice);
    if (top == nullptr) {
        std::cout << "No single-process suggestion to check.\n";
        return 3;
    }
    // The rerun: the same options with the one change, the same limit, a run file of its own.
    const std::filesystem::path path(out);
    const std::string advice_out =
        (path.parent_path() / (path.stem().string() + ".advice" + path.extension().string()))
            .string();
    std::cout << "\nChecking " << top->change << " under the same limit (" << advice_out
              << ")...\n";
    Recorder::Options recorder_options;
    recorder_options.max_events = m_maxEvents;
    RecordingSession session(top->options, recorder_options);
    InterruptForwarder interrupt([&session] { session.cancel(); });
    try {
        session.start();
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    while (session.running()) {
        session.poll();
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    const RunSummary& summary = session.finish();
    Trace& trace = session.trace();
    try {
        RunFile::save(trace, advice_out);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    if (summary.cancelled) {
        return 130;
    }
    const int64_t measured = summary.peak_allocated_bytes;
    const double error = top->predicted_peak > 0 ? 100.0 * double(measured - top->predicted_peak) /
                                                       double(top->predicted_peak)
                                                 : 0.0;
    char line[256];
    std::snprintf(line, sizeof line, "%+.2f%%", error);
    if (summary.out_of_memory) {
        std::cout << "The suggestion ran out of memory too: " << summary.error << "\n";
        return 3;
    }
    std::cout << "Measured peak " << formatBytes(measured) << " (" << measured
              << " bytes) beside the predicted " << formatBytes(top->predicted_peak) << " ("
              << top->predicted_peak << " bytes): " << line << ", headroom "
              << formatBytes(limit - measured) << " under " << formatBytes(limit) << ".\n"
              << "Wrote " << advice_out << "\n";
    return summary.error.empty() ? 0 : 1;
}

}  // namespace memscope::cli
