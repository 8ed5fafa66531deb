#include "export_command.h"

#include "analysis/event_at.h"
#include "analysis/stack_tree.h"
#include "io/atomic_file.h"

#include "cli_support.h"
#include "io/chrome_trace_exporter.h"
#include "io/run_directory.h"
#include "io/run_file.h"
#include "io/snapshot_exporter.h"
#include "io/table_exporter.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iostream>

namespace memscope::cli {

namespace {

std::string lowerSuffix(const std::string& path) {
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) {
        return "";
    }
    std::string s = path.substr(dot);
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// "out.csv" -> "out.rank1.csv"
std::string rankPath(const std::string& path, const std::string& suffix, int rank) {
    return path.substr(0, path.size() - suffix.size()) + ".rank" + std::to_string(rank) + suffix;
}

}  // namespace

ExportCommand::ExportCommand(CLI::App& parent) {
    m_app = parent.add_subcommand(
        "export", "Write a recorded run for other tools: memory_viz pickle, Chrome trace, tables");
    m_app->add_option("run", m_path, "A .memscope run file or a multi-rank run directory")
        ->required();
    m_app->add_option("--rank", m_rank,
                      "In a multi-rank run: export this rank only (default: all ranks; a Chrome "
                      "trace holds them as processes, other formats get one file per rank)");
    m_app->add_option("--range", m_range, kRangeOptionHelp);
    m_app->add_option("--to,-o", m_to,
                      "Output file; its suffix picks the format: .pickle (memory_viz snapshot), "
                      ".json (Chrome trace), .csv or .md (table)");
    m_app->add_option("--flamegraph", m_flamegraph,
                      "Write the bytes alive at the peak (or --at) by stack as folded stacks "
                      "(flamegraph.pl, speedscope)");
    m_app->add_option("--at", m_at,
                      "With --flamegraph: an event index (5000) or a time (1.25s) instead of "
                      "the peak");
    m_app->add_option("--protocol", m_protocol, "Pickle protocol, 2 or 4 (default 4)");
    m_app->add_option("--table", m_table,
                      "Table for .csv/.md: operators, allocations or summary (default operators)");
    m_app->add_option("--limit", m_limit,
                      "At most N table rows (default: all; Markdown allocation lists: 100)");
}

int ExportCommand::run() {
    if (m_to.empty() == m_flamegraph.empty()) {
        return reportUsageError("export needs either --to FILE or --flamegraph FILE");
    }
    if (!m_at.empty() && m_flamegraph.empty()) {
        return reportUsageError("--at works with --flamegraph only");
    }
    if (!m_flamegraph.empty()) {
        return writeFlameGraph();
    }
    const std::string suffix = lowerSuffix(m_to);
    const bool pickle = suffix == ".pickle" || suffix == ".pkl";
    const bool chrome = suffix == ".json";
    const bool csv = suffix == ".csv";
    const bool markdown = suffix == ".md" || suffix == ".markdown";
    if (!pickle && !chrome && !csv && !markdown) {
        return reportUsageError("--to: cannot tell the format of '" + m_to +
                                "' (use .pickle, .json, .csv or .md)");
    }
    if (m_protocol != 2 && m_protocol != 4) {
        return reportUsageError("--protocol: must be 2 or 4 (memory_viz reads no other), not " +
                                std::to_string(m_protocol));
    }
    TableExporter::Kind kind = TableExporter::Kind::Operators;
    if (!TableExporter::parseKind(m_table, kind)) {
        return reportUsageError("--table: must be operators, allocations or summary, not '" +
                                m_table + "'");
    }
    RunRange range;
    int status = 0;
    if (!parseRangeOption(m_range, range, status)) {
        return status;
    }
    std::string path = m_path;
    if (RunDirectory::isRunDirectory(m_path)) {
        RunDirectory run;
        try {
            run = RunDirectory::load(m_path);
        } catch (const std::exception& e) {
            std::cerr << "memscope-cli: error: " << e.what() << "\n";
            return 1;
        }
        const std::string dir = RunDirectory::directoryOf(m_path);
        if (m_rank >= run.world_size) {
            return reportUsageError("--rank: " + std::to_string(m_rank) +
                                    " is not a rank of this " + std::to_string(run.world_size) +
                                    "-rank run");
        }
        if (m_rank < 0) {
            return exportRanks(run, dir, suffix, kind);
        }
        path = run.rankPath(dir, m_rank);
    } else if (m_rank >= 0) {
        return reportUsageError("--rank: '" + m_path +
                                "' is a single run, not a multi-rank run directory");
    }
    Trace trace;
    try {
        trace = loadRun(path, range);
    } catch (const std::exception& e) {
        std::cerr << "memscope-cli: error: " << e.what() << "\n";
        return 1;
    }
    return exportOne(trace, m_to, suffix, kind);
}

int ExportCommand::exportRanks(const RunDirectory& run, const std::string& dir,
                               const std::string& suffix, TableExporter::Kind kind) {
    std::vector<Trace> traces(size_t(run.world_size));
    std::vector<const Trace*> present(size_t(run.world_size), nullptr);
    for (int r = 0; r < run.world_size; ++r) {
        try {
            traces[size_t(r)] = RunFile::load(run.rankPath(dir, r));
            if (traces[size_t(r)].allocationOfEvent().size() != traces[size_t(r)].events.count()) {
                traces[size_t(r)].finalize();
            }
            present[size_t(r)] = &traces[size_t(r)];
        } catch (const std::exception& e) {
            std::cerr << "memscope-cli: warning: rank " << r << " left out: " << e.what() << "\n";
        }
    }
    if (suffix == ".json") {
        try {
            ChromeTraceExporter::writeRanks(present, m_to, ChromeTraceExporter::Options());
        } catch (const std::exception& e) {
            std::cerr << "memscope-cli: error: " << e.what() << "\n";
            return 1;
        }
        std::cout << "Wrote " << m_to << "\n";
        return 0;
    }
    for (int r = 0; r < run.world_size; ++r) {
        if (present[size_t(r)] != nullptr) {
            const int status =
                exportOne(traces[size_t(r)], rankPath(m_to, suffix, r), suffix, kind);
            if (status != 0) {
                return status;
            }
        }
    }
    return 0;
}

int ExportCommand::exportOne(const Trace& trace, const std::string& to, const std::string& suffix,
                             TableExporter::Kind kind) {
    const bool pickle = suffix == ".pickle" || suffix == ".pkl";
    const bool chrome = suffix == ".json";
    const bool csv = suffix == ".csv";
    const bool markdown = suffix == ".md" || suffix == ".markdown";
    try {
        if (pickle) {
            SnapshotExporter::write(trace, to, m_protocol);
        } else if (chrome) {
            ChromeTraceExporter::write(trace, to);
        } else {
            const auto units = csv ? TableExporter::Units::Raw : TableExporter::Units::Readable;
            // A Markdown list of every allocation would be unreadably long; CSV keeps them all.
            const size_t limit =
                m_limit > 0 ? m_limit
                            : (markdown && kind == TableExporter::Kind::Allocations ? 100 : 0);
            const auto table = TableExporter::make(kind, trace, units, limit);
            writeFileAtomically(to, [&](std::ostream& out) {
                out << (csv ? TableExporter::toCsv(table) : TableExporter::toMarkdown(table));
            });
        }
    } catch (const std::exception& e) {
        std::cerr << "memscope-cli: error: " << e.what() << "\n";
        return 1;
    }
    std::cout << "Wrote " << to << "\n";
    return 0;
}

int ExportCommand::writeFlameGraph() {
    EventAt at;
    if (!m_at.empty()) {
        try {
            at = EventAt::parse(m_at);
        } catch (const std::invalid_argument& e) {
            return reportUsageError(std::string("--at: ") + e.what());
        }
    }
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
    StackTreeOptions options;
    if (!m_at.empty()) {
        try {
            options.at_event = at.resolve(trace);
        } catch (const std::invalid_argument& e) {
            return reportUsageError("--at " + m_at + ": " + e.what());
        }
    }
    const StackTree tree = StackTree::build(trace, options);
    try {
        writeFileAtomically(m_flamegraph, [&](std::ostream& out) { out << tree.folded(); });
    } catch (const std::exception& e) {
        std::cerr << "memscope-cli: error: " << e.what() << "\n";
        return 1;
    }
    std::cout << "Wrote " << m_flamegraph << " (" << tree.root().bytes << " bytes alive at event "
              << tree.atEvent() << ")\n";
    return 0;
}

}  // namespace memscope::cli
