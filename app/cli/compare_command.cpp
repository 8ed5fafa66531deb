#include "compare_command.h"

#include "analysis/run_comparison.h"
#include "cli_support.h"
#include "io/atomic_file.h"
#include "io/run_file.h"

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
    m_app = parent.add_subcommand("compare", "Compare two recorded runs (B against baseline A)");
    m_app->add_option("a", m_a, "Baseline .memscope run file")->required();
    m_app->add_option("b", m_b, ".memscope run file compared with it")->required();
    m_app->add_option("--csv", m_csv, "Write the difference table as CSV");
    m_app->add_option("--markdown", m_markdown, "Write the difference table as Markdown");
    m_app->add_option("--top", m_top, "Module and operator rows per section (default 15)")
        ->check(CLI::PositiveNumber);
}

int CompareCommand::run() {
    Trace a, b;
    try {
        a = RunFile::load(m_a);
        b = RunFile::load(m_b);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    std::string name_a = baseName(m_a), name_b = baseName(m_b);
    if (name_a == name_b) {
        name_a = m_a;
        name_b = m_b;
    }
    const RunComparison c = RunComparison::compare(a, b, name_a, name_b, m_top);
    std::cout << "A: " << m_a << "\nB: " << m_b << "\n\n" << c.toText();
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
