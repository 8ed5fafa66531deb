#include "info_command.h"

#include "cli_support.h"
#include "run/run_summary.h"
#include "trace/reserved_memory.h"
#include "trace/trace_summary.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

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
}

namespace {

// The per-rank table of a run directory.
int printRanks(const RunSource& source, bool json_out) {
    const RunDirectory& run = source.manifest();
    const std::string& dir = source.directory();
    nlohmann::json ranks = nlohmann::json::array();
    for (const auto& rank : source.openRanks({})) {
        nlohmann::json row = {{"rank", rank.rank}, {"file", run.rank_files[size_t(rank.rank)]}};
        if (rank.trace) {
            row["summary"] = rank.trace->summary;
            row["events"] = rank.trace->events.count();
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
    std::cout << "Multi-rank run: " << run.parallel << " over " << run.world_size
              << " ranks, global batch " << run.global_batch_size << " (" << dir << ")\n\n";
    char line[256];
    std::snprintf(line, sizeof line, "%-5s %-16s %14s %14s %10s %10s  %s\n", "rank", "file",
                  "steady peak", "peak", "step (s)", "events", "status");
    std::cout << line;
    for (const auto& row : ranks) {
        if (row.contains("error")) {
            std::snprintf(line, sizeof line, "%-5d %-16s %14s %14s %10s %10s  %s\n",
                          row["rank"].get<int>(), row["file"].get<std::string>().c_str(), "-", "-",
                          "-", "-", "not readable (the rank did not save its file)");
            std::cout << line;
            continue;
        }
        const auto& s = row["summary"];
        const std::string status = s.contains("error") && s["error"].is_string()
                                       ? "stopped: " + s["error"].get<std::string>()
                                   : s.value("cancelled", false) ? "cancelled"
                                                                 : "finished";
        std::snprintf(line, sizeof line, "%-5d %-16s %14s %14s %10.4f %10llu  %s\n",
                      row["rank"].get<int>(), row["file"].get<std::string>().c_str(),
                      formatBytes(s.value("steady_peak_allocated_bytes", int64_t(0))).c_str(),
                      formatBytes(s.value("peak_allocated_bytes", int64_t(0))).c_str(),
                      s.value("avg_step_s", 0.0),
                      static_cast<unsigned long long>(row["events"].get<uint64_t>()),
                      status.c_str());
        std::cout << line;
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
    auto summary = trace.summary;
    if (!summary.is_object()) {
        summary = nlohmann::json::object();
    }
    // Imported or older files may lack the memory figures: derive them from the events.
    if (!summary.contains("events")) {
        summary.update(TraceSummary::compute(trace));
    }
    if (!summary.contains("reserved")) {  // files written before reserved memory was summarised
        summary["reserved"] = ReservedMemory::compute(trace).toJson();
    }
    if (m_json) {
        std::cout << summary.dump(2) << "\n";
        return 0;
    }
    std::cout << TraceSummary::toText(trace, summary, m_top);
    return 0;
}

}  // namespace memscope::cli
