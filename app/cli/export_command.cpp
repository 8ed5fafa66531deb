#include "export_command.h"

#include "analysis/event_at.h"
#include "analysis/stack_tree.h"
#include "io/atomic_file.h"

#include "analysis/table_exporter.h"
#include "cli_support.h"
#include "interchange/chrome_trace_exporter.h"
#include "interchange/snapshot_exporter.h"
#include "model/input_error.h"

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
    m_app
        ->add_option("run", m_path,
                     "A .memscope run file, a multi-rank run directory, a PyTorch memory "
                     "snapshot or a recording journal")
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
                      "With --flamegraph or --table modules: an event index (5000), a time "
                      "(1.25s) or oom instead of the peak");
    m_app->add_option("--protocol", m_protocol, "Pickle protocol, 2 or 4 (default 4)");
    m_app->add_option("--table", m_table,
                      "Table for .csv/.md: operators, allocations, summary or modules (default "
                      "operators)");
    m_app->add_option("--limit", m_limit,
                      "At most N table rows (default: all; Markdown allocation lists: 100)");
}

int ExportCommand::run() {
    if (m_to.empty() == m_flamegraph.empty()) {
        return reportUsageError("export needs either --to FILE or --flamegraph FILE");
    }
    if (!m_at.empty() && m_flamegraph.empty() && m_table != "modules") {
        return reportUsageError("--at works with --flamegraph or --table modules only");
    }
    if (!m_at.empty()) {
        try {
            EventAt::parse(m_at);
        } catch (const InputError& e) {
            return reportUsageError(std::string("--at: ") + e.what());
        }
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
        return reportUsageError(
            "--table: must be operators, allocations, summary or modules, not '" + m_table + "'");
    }
    RunRange range;
    int status = 0;
    if (!parseRangeOption(m_range, range, status)) {
        return status;
    }
    Trace trace;
    try {
        const RunSource source(m_path);
        if (source.isMultiRank() && m_rank < 0) {
            return exportRanks(source, suffix, kind);
        }
        if (const int status = loadRankOf(source, m_rank, range, trace); status != 0) {
            return status;
        }
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    return exportOne(trace, m_to, suffix, kind);
}

int ExportCommand::exportRanks(const RunSource& source, const std::string& suffix,
                               TableExporter::Kind kind) {
    const auto ranks = source.openRanks({});
    std::vector<const Trace*> present(ranks.size(), nullptr);
    for (const auto& rank : ranks) {
        if (rank.trace) {
            present[size_t(rank.rank)] = rank.trace.get();
        } else {
            std::cerr << "memscope-cli: warning: rank " << rank.rank
                      << " left out: " << rank.problem << "\n";
        }
    }
    if (suffix == ".json") {
        try {
            ChromeTraceExporter::writeRanks(present, m_to, ChromeTraceExporter::Options());
        } catch (const std::exception& e) {
            return fail(e.what());
        }
        std::cout << "Wrote " << m_to << "\n";
        return 0;
    }
    for (int r = 0; r < int(present.size()); ++r) {
        if (present[size_t(r)] != nullptr) {
            const int status =
                exportOne(*present[size_t(r)], rankPath(m_to, suffix, r), suffix, kind);
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
            int64_t at_event = -1;
            if (!m_at.empty()) {
                try {
                    at_event = EventAt::parse(m_at).resolve(trace);
                } catch (const InputError& e) {
                    return reportUsageError("--at " + m_at + ": " + e.what());
                }
            }
            const auto table = TableExporter::make(kind, trace, units, limit, at_event);
            writeFileAtomically(to, [&](std::ostream& out) {
                out << (csv ? TableExporter::toCsv(table) : TableExporter::toMarkdown(table));
            });
        }
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    std::cout << "Wrote " << to << "\n";
    return 0;
}

int ExportCommand::writeFlameGraph() {
    EventAt at;
    if (!m_at.empty()) {
        try {
            at = EventAt::parse(m_at);
        } catch (const InputError& e) {
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
        const RunSource source(m_path);
        if (const int status = loadRankOf(source, m_rank, range, trace); status != 0) {
            return status;
        }
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    StackTreeOptions options;
    if (!m_at.empty()) {
        try {
            options.at_event = at.resolve(trace);
        } catch (const InputError& e) {
            return reportUsageError("--at " + m_at + ": " + e.what());
        }
    }
    const StackTree tree = StackTree::build(trace, options);
    try {
        writeFileAtomically(m_flamegraph, [&](std::ostream& out) { out << tree.folded(); });
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    std::cout << "Wrote " << m_flamegraph << " (" << tree.root().bytes << " bytes alive at event "
              << tree.atEvent() << ")\n";
    return 0;
}

}  // namespace memscope::cli
