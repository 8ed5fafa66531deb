#include "info_command.h"

#include "analysis/run_statistics.h"

#include "analysis/event_at.h"
#include "analysis/run_statistics.h"
#include "cli_support.h"
#include "explain/module_table.h"
#include "explain/oom_explanation.h"
#include "explain/reserved_memory.h"
#include "explain/step_growth.h"
#include "explain/trace_summary.h"
#include "model/input_error.h"
#include "model/train_option_table.h"
#include "predict/fit_advice.h"
#include "run/run_summary.h"
#include "run/text_format.h"
#include "studies/program_fit_advice.h"
#include "trace/recorded_options.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>

namespace memscope::cli {

InfoCommand::InfoCommand(CLI::App& parent) {
    m_app = parent.add_subcommand("info", "Summarise a recorded run");
    m_app
        ->add_option(
            "run", m_path,
            "A .memscope run file, a multi-rank run directory, a PyTorch memory snapshot or a "
            "recording journal")
        ->required();
    m_app->add_option("--rank", m_rank, "In a multi-rank run: show this rank only");
    m_app->add_option("--range", m_range, kRangeOptionHelp);
    m_app->add_option("--top", m_top, "How many operators to list (default 10)");
    m_app->add_flag("--json", m_json, "Print the stored summary as JSON");
    m_app->add_flag("--modules", m_modules,
                    "Where the memory is, module by module: parameters, gradients, optimizer "
                    "state, activations, temporaries and backward buffers each module holds at "
                    "the peak (or --at), its forward and backward peaks and the bytes it saved "
                    "for backward");
    m_app->add_flag("--growth", m_growth,
                    "Why memory grows every step: per step its end-of-step floor and the bytes "
                    "it made that later steps keep (parameters, gradients and optimizer state "
                    "left out), and the stacks that keep growing, with their bytes per step and "
                    "the step they started (--json: as JSON)");
    m_app->add_option("--at", m_at,
                      "With --modules: peak (default), oom, an event index (5000) or a time "
                      "(1.25s)");
    m_app->add_option("--depth", m_depth,
                      "With --modules: rows down to this depth (0: the top modules; default all)");
    m_app->add_option("--fit", m_fit,
                      "A Python program's run: its peak as the fit of a sweep of the program "
                      "predicts it (sweep --python's directory), and after an out-of-memory the "
                      "largest batch and context the fit says fit the limit");
}

int InfoCommand::printModules(const Trace& trace) const {
    int64_t event = -1;
    if (!m_at.empty()) {
        try {
            event = EventAt::parse(m_at).resolve(trace);
        } catch (const InputError& e) {
            return reportUsageError("--at " + m_at + ": " + e.what());
        }
    }
    if (!ModuleTable::available(trace)) {
        return fail(m_path +
                    ": no module is named in this run's stacks (a snapshot recorded without "
                    "Python frames, or a program that calls no nn.Module): --modules has nothing "
                    "to show");
    }
    const ModuleTable table = ModuleTable::compute(trace, event);
    if (m_json) {
        std::cout << table.toJson().dump(2) << "\n";
        return 0;
    }
    const std::string moment = m_at.empty() || m_at == "peak" ? "at the peak"
                               : m_at == "oom"                ? "when it ran out of memory"
                                                              : "at " + m_at;
    std::cout << "Modules " << moment << " (event " << table.event() << ", step " << table.step()
              << "):\n"
              << table.toText(m_depth);
    return 0;
}

namespace {

// The per-rank table of a run directory.
int printRanks(const RunSource& source, bool json_out) {
    const RunDirectory& run = source.manifest();
    const std::string& dir = source.directory();
    nlohmann::json ranks = nlohmann::json::array();
    for (const auto& rank : source.openRanks({})) {
        nlohmann::json row = {{"rank", rank.rank}, {"file", run.rank_files[size_t(rank.rank)]}};
        if (size_t(rank.rank) < run.processes.size()) {  // a Python program's process
            const auto& p = run.processes[size_t(rank.rank)];
            row["process"] = {{"role", p.role}, {"pid", p.pid}};
            if (p.group_rank >= 0) {
                row["process"]["group_rank"] = p.group_rank;
                row["process"]["group_size"] = p.group_size;
            }
        }
        if (rank.trace) {
            row["summary"] = rank.trace->summary;
            row["events"] = rank.trace->events.count();
            // A Python process stores its steps, not a trainer's averages: the step time comes
            // from them (0 when the rank made no step).
            row["avg_step_s"] = RunStatistics::fromStored(*rank.trace).avg_step_s;
            const auto program = rank.trace->summary.value("program", nlohmann::json::object());
            if (program.is_object() && program.contains("optimizers")) {
                row["optimizers"] = program["optimizers"];
            }
        } else {
            row["error"] = rank.problem;
        }
        ranks.push_back(row);
    }
    if (json_out) {
        std::cout << nlohmann::json{{"world_size", run.world_size},
                                    {"parallel", run.parallel},
                                    {"global_batch_size", run.global_batch_size},
                                    {"ranks", ranks}}
                         .dump(2)
                  << "\n";
        return 0;
    }
    const bool processes = !run.processes.empty();
    if (processes) {
        std::cout << "A Python program's " << run.world_size << " processes (" << dir << ")\n\n";
    } else {
        std::cout << "Multi-rank run: " << run.parallel << " over " << run.world_size
                  << " ranks, global batch " << run.global_batch_size << " (" << dir << ")\n\n";
    }
    // A trainer's rank stores the allocator's peak; a Python process the recorded one.
    auto bytes = [](const nlohmann::json& s, const char* key) {
        const std::string recorded = std::string(key) + "_recorded";
        return s.contains(key) ? s.value(key, int64_t(0)) : s.value(recorded, int64_t(0));
    };
    char line[320];
    bool any_optimizer = false;
    for (const auto& row : ranks) {
        any_optimizer = any_optimizer || row.contains("optimizers");
    }
    std::snprintf(line, sizeof line, "%-5s %-16s %14s %14s %10s %10s  %s%s\n", "rank", "file",
                  "steady peak", "peak", "step (s)", "events", processes ? "process" : "status",
                  any_optimizer ? "; optimizer" : "");
    std::cout << line;
    int largest = -1;
    int64_t largest_peak = -1;
    for (const auto& row : ranks) {
        if (row.contains("error")) {
            std::snprintf(line, sizeof line, "%-5d %-16s %14s %14s %10s %10s  %s\n",
                          row["rank"].get<int>(), row["file"].get<std::string>().c_str(), "-", "-",
                          "-", "-", "not readable (the rank did not save its file)");
            std::cout << line;
            continue;
        }
        const auto& s = row["summary"];
        const int rank = row["rank"].get<int>();
        std::string status = s.contains("error") && s["error"].is_string()
                                 ? "stopped: " + s["error"].get<std::string>()
                             : s.value("cancelled", false) ? "cancelled"
                                                           : "finished";
        if (processes) {
            const auto& p = run.processes[size_t(rank)];
            status = p.role + " " + std::to_string(p.pid);
            if (p.group_rank >= 0) {
                status += ", group rank " + std::to_string(p.group_rank) + "/" +
                          std::to_string(p.group_size);
            }
        }
        const int64_t peak = bytes(s, "peak_allocated_bytes");
        if (peak > largest_peak) {
            largest_peak = peak;
            largest = rank;
        }
        if (row.contains("optimizers")) {
            std::vector<std::string> names;
            for (const auto& name : row["optimizers"]) {
                names.push_back(name.get<std::string>());
            }
            status += "; " + joinedNames(names);
        }
        const double step_s = row.value("avg_step_s", 0.0);
        char step[32];
        std::snprintf(step, sizeof step, "%.4f", step_s);
        std::snprintf(line, sizeof line, "%-5d %-16s %14s %14s %10s %10llu  %s\n", rank,
                      row["file"].get<std::string>().c_str(),
                      formatBytes(bytes(s, "steady_peak_allocated_bytes")).c_str(),
                      formatBytes(peak).c_str(), step_s > 0 ? step : "-",
                      static_cast<unsigned long long>(row["events"].get<uint64_t>()),
                      status.c_str());
        std::cout << line;
    }
    // Each rank's categories at its own peak, and which rank peaked highest.
    std::vector<std::string> categories;
    for (const auto& row : ranks) {
        if (row.contains("summary") && row["summary"].contains("bytes_by_category_at_peak")) {
            for (const auto& [name, value] : row["summary"]["bytes_by_category_at_peak"].items()) {
                if (value.is_number_integer() && value.get<int64_t>() > 0 &&
                    std::find(categories.begin(), categories.end(), name) == categories.end()) {
                    categories.push_back(name);
                }
            }
        }
    }
    if (!categories.empty()) {
        std::cout << "\nAt each rank's peak:\n";
        std::cout << "rank ";
        for (const auto& c : categories) {
            std::snprintf(line, sizeof line, " %16s", c.c_str());
            std::cout << line;
        }
        std::cout << "\n";
        for (const auto& row : ranks) {
            if (!row.contains("summary")) {
                continue;
            }
            std::snprintf(line, sizeof line, "%-5d", row["rank"].get<int>());
            std::cout << line;
            const auto& at = row["summary"].value("bytes_by_category_at_peak", nlohmann::json());
            for (const auto& c : categories) {
                const int64_t v = at.is_object() ? at.value(c, int64_t(0)) : 0;
                std::snprintf(line, sizeof line, " %16s", formatBytes(v).c_str());
                std::cout << line;
            }
            std::cout << "\n";
        }
    }
    if (largest >= 0) {
        std::cout << "\nLargest peak: rank " << largest << ", " << formatBytes(largest_peak)
                  << "\n";
    }
    std::cout << "\n`memscope-cli info " << source.path() << " --rank N` shows one rank.\n";
    return 0;
}

}  // namespace

int InfoCommand::run() {
    RunRange range;
    int status = 0;
    if (!parseRangeOption(m_range, range, status)) {
        return status;
    }
    Trace trace;
    try {
        const RunSource source(m_path);
        if (source.isMultiRank() && m_rank < 0) {
            return printRanks(source, m_json);
        }
        if (const int status = loadRankOf(source, m_rank, range, trace); status != 0) {
            return status;
        }
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    if (m_modules) {
        return printModules(trace);
    }
    if (m_growth) {
        const auto growth = StepGrowth::analyze(trace);
        std::cout << (m_json ? growth.toJson(m_top).dump(2) + "\n" : growth.toText(m_top));
        return 0;
    }
    if (!m_at.empty() || m_depth >= 0) {
        return reportUsageError(std::string(m_at.empty() ? "--depth" : "--at") +
                                " goes with --modules");
    }
    // Imported or older files may lack figures: derived from the events.
    auto summary = TraceSummary::completed(trace);
    // A run of the built-in trainer that ran out of memory under a limit: the single changes
    // the planner predicts to fit it (record --check-advice runs the first; issue 41).
    const auto options = recordedOptions(trace.meta);
    const auto& oom = summary["oom_explanation"];
    const int64_t limit = oom.is_object() ? oom.value("capacity_bytes", int64_t(0)) : 0;
    std::vector<FitAdvice::Suggestion> advice;
    bool advised = false;
    if (options && limit > 0) {
        try {
            advice = FitAdvice::suggest(*options, limit);
            advised = true;
            summary["fit_advice"] = FitAdvice::toJson(advice, limit);
        } catch (const std::exception&) {
            // a configuration the planner does not model: no advice
        }
    }
    // A Python program's run with a sweep of the program: the fit's prediction and advice.
    std::optional<ProgramFitAdvice::Advice> program_advice;
    if (!m_fit.empty()) {
        try {
            const auto sweep = ProgramSweep::load(m_fit);
            const auto fit = ProgramMemoryFit::fit(sweep.samples());
            program_advice = ProgramFitAdvice::advise(
                sweep, fit, ProgramFitAdvice::commandOf(trace.meta.config), limit);
        } catch (const std::exception& e) {
            return fail("--fit " + m_fit + ": " + e.what());
        }
        summary["fit_advice"] = ProgramFitAdvice::toJson(*program_advice);
    }
    if (m_json) {
        std::cout << summary.dump(2) << "\n";
        return 0;
    }
    std::cout << TraceSummary::toText(trace, summary, m_top);
    if (program_advice) {
        const int64_t recorded = summary.value("peak_allocated_bytes_recorded", int64_t(0));
        std::cout << "\n" << ProgramFitAdvice::toText(*program_advice);
        if (recorded > 0 && limit <= 0) {
            char line[64];
            std::snprintf(
                line, sizeof line, "%+.2f%%",
                100.0 * double(program_advice->predicted_peak - recorded) / double(recorded));
            std::cout << "Recorded peak " << formatBytes(recorded) << ": the fit is off by " << line
                      << ".\n";
        }
        if (limit > 0 && !program_advice->suggestions.empty()) {
            std::cout << "`memscope-cli record "
                      << TrainOptionTable::argument("device_memory_limit", std::to_string(limit))
                      << " --fit " << m_fit
                      << " --check-advice --python ...` reruns the first and measures it.\n";
        }
    }
    if (advised) {
        std::cout << "\n"
                  << FitAdvice::toText(advice, limit) << "`memscope-cli record ... "
                  << TrainOptionTable::argument("device_memory_limit", std::to_string(limit))
                  << " --check-advice` reruns the first one that needs one process and "
                     "measures it.\n";
    }
    return 0;
}

}  // namespace memscope::cli
