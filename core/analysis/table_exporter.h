#pragma once

#include "trace/trace.h"

#include <cstddef>
#include <string>
#include <vector>

namespace memscope {

// The tables of a run as CSV (RFC 4180) or GitHub Markdown, for spreadsheets and write-ups:
//   operators    Trace::operators: name, kind (op / module), calls, self and total CPU time with
//                their share of the profiled time, bytes allocated (children included), self
//                bytes allocated, self net bytes (allocated minus freed, children excluded; can be
//                negative, as in torch.profiler), largest allocation, FLOPs. Operators first,
//                then modules, each by bytes allocated.
//   allocations  every allocation, largest first: size, category, phase, step, module, op,
//                allocated at / freed at (ms since the run started) and lifetime
//   summary      key, value rows: the run (file metadata), the stored summary and the memory
//                figures TraceSummary::compute derives from the events, flattened with dots
//   modules      explain/module_table.h at the peak (or at_event): one row per module path, in
//                the table's tree order (Markdown indents the name), what it holds at the moment
//                per column with its sub-modules, its forward and backward peaks and the bytes it
//                saved for backward; the last row "(no module)"
// CSV cells hold plain numbers (bytes, milliseconds) so spreadsheets can compute with them;
// Markdown cells are for reading ("12.3 MiB").
class TableExporter {
  public:
    enum class Kind { Operators, Allocations, Summary, Modules };
    enum class Units { Raw, Readable };

    struct Table {
        std::vector<std::string> columns;
        std::vector<bool> numeric;  // per column: right-aligned in Markdown
        std::vector<std::vector<std::string>> rows;
    };

    // limit: at most this many rows (0: all).
    static Table operators(const Trace& trace, Units units, size_t limit = 0);
    static Table allocations(const Trace& trace, Units units, size_t limit = 0);
    static Table summary(const Trace& trace, Units units);
    // at_event: the moment (-1: the peak).
    static Table modules(const Trace& trace, Units units, size_t limit = 0, int64_t at_event = -1);
    static Table make(Kind kind, const Trace& trace, Units units, size_t limit = 0,
                      int64_t at_event = -1);

    static std::string toCsv(const Table& table);
    static std::string toMarkdown(const Table& table);
    // One CSV field: quoted when it holds a comma, quote, CR or LF (quotes doubled), or when it
    // starts or ends with a space.
    static std::string csvField(const std::string& text);
    // One Markdown table cell: pipes and backslashes escaped, line breaks as <br>.
    static std::string markdownCell(const std::string& text);

    // "operators" / "allocations" / "summary" / "modules"; false when the name is none of them.
    static bool parseKind(const std::string& text, Kind& kind);
};

}  // namespace memscope
