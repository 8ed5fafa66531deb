#include "report/growth_chapter.h"

#include "analysis/table_exporter.h"
#include "explain/step_growth.h"
#include "run/run_summary.h"

#include <sstream>

namespace memscope {

namespace {

// Inside a code span Markdown takes everything literally but a pipe, which ends the cell.
std::string codeCell(const std::string& s) {
    std::string out;
    for (const char c : s) {
        out += c == '|' ? std::string("\\|") : std::string(1, c);
    }
    return "`" + out + "`";
}

std::string place(const StepGrowth::Group& g) {
    std::string out = g.made_at.empty() ? TableExporter::markdownCell(g.name) : codeCell(g.made_at);
    if (!g.called_from.empty()) {
        out += ", called from " + codeCell(g.called_from);
    }
    return out;
}

}  // namespace

std::string GrowthChapter::markdown(const std::vector<std::pair<std::string, const Trace*>>& runs,
                                    size_t top) {
    std::ostringstream out;
    std::ostringstream details;
    bool judged = false;
    out << "## Does memory grow every step?\n\n"
        << "What each complete step makes (parameters, gradients and optimizer state left out) "
           "and the last complete step still holds. A program that keeps something from every "
           "step (a loss with its graph, a list of tensors, a cache that never evicts) grows by "
           "it until it runs out.\n\n"
        << "| Run | Complete steps | Verdict |\n|---|---:|---|\n";
    for (const auto& [name, trace] : runs) {
        if (trace == nullptr) {
            continue;
        }
        const StepGrowth g = StepGrowth::analyze(*trace);
        if (g.verdict() == StepGrowth::Verdict::TooFewSteps) {
            continue;
        }
        judged = true;
        out << "| " << TableExporter::markdownCell(name) << " | " << g.completeSteps() << " | "
            << TableExporter::markdownCell(g.verdictText()) << " |\n";
        if (g.verdict() != StepGrowth::Verdict::Grows &&
            g.verdict() != StepGrowth::Verdict::Stopped) {
            continue;
        }
        details << "### " << name << ": what grows\n\n"
                << "| Trend | A step | Allocations a step | Steps | Kept | Where it was made | "
                   "Operator |\n|---|---:|---:|---|---:|---|---|\n";
        size_t shown = 0;
        for (const auto& group : g.byStack()) {
            if (group.trend == StepGrowth::Trend::Once || shown++ == top) {
                continue;
            }
            details << "| " << StepGrowth::trendId(group.trend) << " | "
                    << formatBytes(group.bytes_per_step) << " | " << group.count_per_step << " | "
                    << group.first_step << "-" << group.last_step << " | "
                    << formatBytes(group.kept_bytes) << " | " << place(group) << " | "
                    << TableExporter::markdownCell(group.op) << " |\n";
        }
        details << "\nEnd-of-step floors (bytes alive when each step ends):";
        for (const auto& row : g.steps()) {
            details << (row.step == 1 ? " " : ", ") << formatBytes(row.floor_bytes);
        }
        details << ".\n\n";
    }
    if (!judged) {
        return {};
    }
    return out.str() + "\n" + details.str();
}

}  // namespace memscope
