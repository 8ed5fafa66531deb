#pragma once

#include "analysis/table_exporter.h"
#include "trace/trace.h"

#include <string>
#include <vector>

namespace memscope {

// What changed between two runs (A, the baseline, and B): the summary figures (peaks, average,
// speed), the bytes live at each one's peak per category, and the modules and operators whose
// allocated bytes or self time changed most. Module and operator figures are sums over every
// recorded step (Trace::operators), so runs with different step counts compare per step.
struct RunComparison {
    enum class Section { Summary, Category, Module, OperatorMemory, OperatorTime };
    enum class Unit { Bytes, Seconds, PerSecond };

    struct Row {
        Section section = Section::Summary;
        std::string name;
        Unit unit = Unit::Bytes;
        double a = 0;
        double b = 0;
        bool in_a = true;  // false: the run has no such module/operator/figure
        bool in_b = true;
        double delta() const { return b - a; }
        // (b - a) / a in percent; NaN when a is 0.
        double percent() const;
    };

    std::string name_a;
    std::string name_b;
    std::vector<Row> rows;

    // top: at most this many module rows and this many rows per operator section, the largest
    // |delta| first.
    static RunComparison compare(const Trace& a, const Trace& b, const std::string& name_a = "A",
                                 const std::string& name_b = "B", size_t top = 15);

    static std::string sectionName(Section section);  // "summary", "category at peak", ...
    // A value of `unit` for reading ("12.3 MiB", "0.105 s", "75.9/s"); signed adds "+" to
    // positive values.
    static std::string formatValue(double value, Unit unit, bool is_signed = false);

    // Columns: Section, Name, A's name, B's name, Delta, Delta %. Raw units: bytes, seconds.
    TableExporter::Table toTable(TableExporter::Units units) const;
    // The table as text for a terminal (aligned columns).
    std::string toText() const;
};

}  // namespace memscope
