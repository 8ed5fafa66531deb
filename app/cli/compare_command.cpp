#include "compare_command.h"

#include "analysis/aligned_difference.h"
#include "analysis/run_comparison.h"
#include "cli_support.h"
#include "io/atomic_file.h"
#include "model/input_error.h"
#include "source/run_source.h"

#include <CLI/Validators.hpp>

#include <iostream>

namespace memscope::cli {

namespace {

std::string baseName(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

CompareCommand::CompareCommand(CLI::App& parent) {
    m_app = parent.add_subcommand(
        "compare", "Compare two runs (B against baseline A), or two ranks of one run");
    m_app
        ->add_option("a", m_a,
                     "Baseline: a .memscope run file, a multi-rank run directory, a PyTorch "
                     "memory snapshot or a recording journal")
        ->required();
    m_app->add_option("b", m_b,
                      "The run compared with it (default: A again: two ranks of one run, "
                      "ranks 0 and 1 unless --rank-a and --rank-b say)");
    m_app->add_option("--rank-a", m_rankA, "In a multi-rank run A: the rank compared against");
    m_app->add_option("--rank-b", m_rankB, "In a multi-rank run B: the rank compared");
    m_app->add_option("--csv", m_csv, "Write the difference table as CSV");
    m_app->add_option("--markdown", m_markdown, "Write the difference table as Markdown");
    m_app->add_option("--top", m_top, "Module and operator rows per section (default 15)")
        ->check(CLI::PositiveNumber);
    m_app->add_option("--at", m_at,
                      "Where the two runs differ at one aligned moment: STEP:PHASE (2:forward, "
                      "2:backward, 2:optimizer: each run's highest point in that step's phase), "
                      "STEP (in the step) or peak (each run's own), by category, module and the "
                      "place that made the bytes; the sections sum to the two totals");
    m_app->add_flag("--json", m_json, "With --at: print the difference as JSON");
}

int CompareCommand::run() {
    // Any run RunSource opens: a file, a snapshot, a journal, a rank of a run directory.
    Trace a, b;
    try {
        if (m_b.empty()) {  // two ranks of one run: by default its first two
            m_b = m_a;
            if (RunSource(m_a).isMultiRank() && m_rankA < 0 && m_rankB < 0) {
                m_rankA = 0;
                m_rankB = 1;
            }
        }
        if (const int status = loadRankOf(RunSource(m_a), m_rankA, {}, a); status != 0) {
            return status;
        }
        if (const int status = loadRankOf(RunSource(m_b), m_rankB, {}, b); status != 0) {
            return status;
        }
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    auto label = [](const std::string& path, int rank, bool full) {
        return (full ? path : baseName(path)) + (rank >= 0 ? " rank " + std::to_string(rank) : "");
    };
    std::string name_a = label(m_a, m_rankA, false), name_b = label(m_b, m_rankB, false);
    if (name_a == name_b) {
        name_a = label(m_a, m_rankA, true);
        name_b = label(m_b, m_rankB, true);
    }
    if (!m_at.empty() || m_json) {
        try {
            const auto moment = AlignedDifference::parseMoment(m_at);
            const auto d = AlignedDifference::compute(a, b, moment, name_a, name_b);
            std::cout << (m_json ? d.toJson().dump(2) + "\n" : d.toText(m_top));
            return 0;
        } catch (const InputError& e) {
            return reportUsageError(e.what());
        } catch (const std::exception& e) {
            return fail(e.what());
        }
    }
    const RunComparison c = RunComparison::compare(a, b, name_a, name_b, m_top);
    std::cout << "A: " << label(m_a, m_rankA, true) << "\nB: " << label(m_b, m_rankB, true)
              << "\n\n"
              << c.toText();
    try {
        if (!m_csv.empty()) {
            const auto text = TableExporter::toCsv(c.toTable(TableExporter::Units::Raw));
            writeFileAtomically(m_csv, [&text](std::ostream& out) { out << text; });
            std::cout << "\nWrote " << m_csv << "\n";
        }
        if (!m_markdown.empty()) {
            const auto text = "# " + name_b + " against " + name_a + "\n\n" +
                              TableExporter::toMarkdown(c.toTable(TableExporter::Units::Readable));
            writeFileAtomically(m_markdown, [&text](std::ostream& out) { out << text; });
            std::cout << "Wrote " << m_markdown << "\n";
        }
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    return 0;
}

}  // namespace memscope::cli
