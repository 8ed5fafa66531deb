#include "report_command.h"

#include "io/atomic_file.h"

#include "cli_support.h"
#include "model/input_error.h"
#include "report/report_writer.h"
#include "report/size_table_chapter.h"
#include "source/run_source.h"
#include "studies/program_sweep.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

namespace memscope::cli {

ReportCommand::ReportCommand(CLI::App& parent) {
    m_app = parent.add_subcommand("report", "Write a Markdown report over recorded runs");
    m_app
        ->add_option("runs", m_paths,
                     ".memscope run files, multi-rank run directories, PyTorch memory snapshots or "
                     "recording journals")
        ->required();
    m_app->add_option("--range", m_range, kRangeOptionHelp);
    m_app->add_option("--sizes", m_sizes,
                      "RUN:s=128,b=4: the sizes a run was made with (s the context length, b the "
                      "batch size, any other NAME=VALUE part of its setting), for the tables by "
                      "size of runs without a recorded configuration, such as PyTorch snapshots; "
                      "RUN is the file's name as given or its base name. Repeat for each run. A "
                      "sweep --python directory given as a run brings its points' sizes");
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
    std::vector<std::map<std::string, std::string>> sizes;
    std::map<std::string, std::map<std::string, std::string>> given;
    try {
        for (const auto& spec : m_sizes) {
            const auto colon = spec.rfind(':', spec.find('='));
            if (colon == std::string::npos || colon == 0) {
                return reportUsageError("--sizes " + spec + ": not RUN:s=128,b=4");
            }
            const std::string run = spec.substr(0, colon);
            if (std::find(m_paths.begin(), m_paths.end(), run) == m_paths.end() &&
                std::none_of(m_paths.begin(), m_paths.end(), [&run](const std::string& p) {
                    return p.size() >= run.size() + 1 &&
                           p.compare(p.size() - run.size() - 1, std::string::npos, "/" + run) == 0;
                })) {
                return reportUsageError("--sizes " + spec + ": " + run + " is not one of the runs");
            }
            given[run] = SizeTableChapter::parseSizes(spec.substr(colon + 1), "--sizes " + spec);
        }
    } catch (const InputError& e) {
        return reportUsageError(e.what());
    }
    // A multi-rank run directory stands for its ranks, each a run of the report; a sweep
    // --python directory for its points, with their sizes.
    for (const auto& path : m_paths) {
        const auto slash = path.find_last_of('/');
        const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
        const auto sized = given.count(path) ? given[path] : given[name];
        try {
            if (std::filesystem::is_directory(path) &&
                std::filesystem::exists(std::filesystem::path(path) / ProgramSweep::kFileName)) {
                const ProgramSweep sweep = ProgramSweep::load(path);
                for (const auto& point : sweep.points) {
                    if (!point.ok || point.run_file.empty()) {
                        continue;
                    }
                    RunSource::Options options;
                    options.range = range;
                    traces.push_back(loadRun(RunSource(path + "/" + point.run_file), options));
                    names.push_back(name + "/" + point.label);
                    std::map<std::string, std::string> point_sizes;
                    for (const auto& [key, value] : point.sizes) {
                        point_sizes[key] = std::to_string(value);
                    }
                    sizes.push_back(std::move(point_sizes));
                }
                continue;
            }
            const RunSource source(path);
            for (int r = 0; r < source.worldSize(); ++r) {
                RunSource::Options options;
                options.range = range;
                options.rank = source.isMultiRank() ? r : -1;
                traces.push_back(loadRun(source, options));
                names.push_back(source.isMultiRank() ? name + " rank " + std::to_string(r) : name);
                sizes.push_back(sized);
            }
        } catch (const std::exception& e) {
            return fail(e.what());
        }
    }
    const std::string report = ReportWriter::markdown(traces, names, sizes);
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
