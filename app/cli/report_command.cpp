#include "report_command.h"

#include "io/atomic_file.h"

#include "cli_support.h"
#include "io/report_writer.h"
#include "io/run_directory.h"
#include "io/run_file.h"

#include <fstream>
#include <iostream>

namespace memscope::cli {

ReportCommand::ReportCommand(CLI::App& parent) {
    m_app = parent.add_subcommand("report", "Write a Markdown report over recorded runs");
    m_app->add_option("runs", m_paths, ".memscope run files or multi-rank run directories")
        ->required();
    m_app->add_option("--range", m_range, kRangeOptionHelp);
    m_app->add_option("--out,-o", m_out, "Markdown file to write (- for standard output)")
        ->capture_default_str();
}

int ReportCommand::run() {
    RunRange range;
    int status = 0;
    if (!parseRangeOption(m_range, range, status)) {
        return status;
    }
    std::vector<Trace> traces;
    std::vector<std::string> names;
    // A multi-rank run directory stands for its ranks, each a run of the report.
    std::vector<std::pair<std::string, std::string>> inputs;  // path, name
    for (const auto& path : m_paths) {
        const auto slash = path.find_last_of('/');
        const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
        if (!RunDirectory::isRunDirectory(path)) {
            inputs.emplace_back(path, name);
            continue;
        }
        try {
            const auto run = RunDirectory::load(path);
            for (int r = 0; r < run.world_size; ++r) {
                inputs.emplace_back(run.rankPath(RunDirectory::directoryOf(path), r),
                                    name + " rank " + std::to_string(r));
            }
        } catch (const std::exception& e) {
            std::cerr << "memscope-cli: error: " << e.what() << "\n";
            return 1;
        }
    }
    for (const auto& [path, name] : inputs) {
        try {
            traces.push_back(loadRun(path, range));
        } catch (const std::exception& e) {
            std::cerr << "memscope-cli: error: " << e.what() << "\n";
            return 1;
        }
        names.push_back(name);
    }
    const std::string report = ReportWriter::markdown(traces, names);
    if (m_out == "-") {
        std::cout << report;
        return 0;
    }
    try {
        writeFileAtomically(m_out, [&](std::ostream& out) { out << report; });
    } catch (const std::exception& e) {
        std::cerr << "memscope-cli: error: " << e.what() << "\n";
        return 1;
    }
    std::cout << "Wrote " << m_out << " (" << traces.size()
              << (traces.size() == 1 ? " run" : " runs") << ")\n";
    return 0;
}

}  // namespace memscope::cli
