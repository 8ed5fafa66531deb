#include "report_command.h"

#include "io/atomic_file.h"

#include "cli_support.h"
#include "report/report_writer.h"

#include <fstream>
#include <iostream>

namespace memscope::cli {

ReportCommand::ReportCommand(CLI::App& parent) {
    m_app = parent.add_subcommand("report", "Write a Markdown report over recorded runs");
    m_app
        ->add_option("runs", m_paths,
                     ".memscope run files, multi-rank run directories, PyTorch memory snapshots or "
                     "recording journals")
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
    for (const auto& path : m_paths) {
        const auto slash = path.find_last_of('/');
        const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
        try {
            const RunSource source(path);
            for (int r = 0; r < source.worldSize(); ++r) {
                RunSource::Options options;
                options.range = range;
                options.rank = source.isMultiRank() ? r : -1;
                traces.push_back(loadRun(source, options));
                names.push_back(source.isMultiRank() ? name + " rank " + std::to_string(r) : name);
            }
        } catch (const std::exception& e) {
            return fail(e.what());
        }
    }
    const std::string report = ReportWriter::markdown(traces, names);
    if (m_out == "-") {
        std::cout << report;
        return 0;
    }
    try {
        writeFileAtomically(m_out, [&](std::ostream& out) { out << report; });
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    std::cout << "Wrote " << m_out << " (" << traces.size()
              << (traces.size() == 1 ? " run" : " runs") << ")\n";
    return 0;
}

}  // namespace memscope::cli
