#include "info_command.h"

#include "cli_support.h"
#include "io/run_file.h"
#include "trace/reserved_memory.h"
#include "trace/trace_summary.h"
#include "train/run_summary.h"

#include <iostream>

namespace memscope::cli {

InfoCommand::InfoCommand(CLI::App& parent) {
    m_app = parent.add_subcommand("info", "Summarise a recorded run");
    m_app->add_option("run", m_path, "A .memscope run file")->required();
    m_app->add_option("--range", m_range, kRangeOptionHelp);
    m_app->add_option("--top", m_top, "How many operators to list (default 10)");
    m_app->add_flag("--json", m_json, "Print the stored summary as JSON");
}

int InfoCommand::run() {
    RunRange range;
    int status = 0;
    if (!parseRangeOption(m_range, range, status)) {
        return status;
    }
    Trace trace;
    try {
        trace = loadRun(m_path, range);
    } catch (const std::exception& e) {
        std::cerr << "memscope-cli: error: " << e.what() << "\n";
        return 1;
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
