#pragma once

#include "analysis/table_exporter.h"
#include "source/run_source.h"
#include "trace/trace.h"

#include <CLI/App.hpp>

#include <cstddef>
#include <string>

namespace memscope::cli {

// `memscope-cli export RUN.memscope --to FILE`: hands a recorded run to other tools, the format
// chosen by FILE's suffix:
//   .pickle / .pkl  PyTorch memory snapshot for pytorch.org/memory_viz (--protocol 2|4)
//   .json           Chrome trace for Perfetto / chrome://tracing
//   .csv / .md      a table (--table operators|allocations|summary)
// or, with --flamegraph FILE, the bytes alive at the peak (or --at) by stack as folded stacks
// ("frame;frame;frame bytes" lines) for flamegraph.pl and speedscope.
class ExportCommand {
  public:
    explicit ExportCommand(CLI::App& parent);

    bool selected() const { return m_app->parsed(); }
    // Exit status: 0 written, 1 unreadable run or unwritable output, 2 bad options.
    int run();

  private:
    int exportOne(const Trace& trace, const std::string& to, const std::string& suffix,
                  TableExporter::Kind kind);
    int exportRanks(const RunSource& source, const std::string& suffix, TableExporter::Kind kind);
    int writeFlameGraph();

    CLI::App* m_app;
    std::string m_path;
    int m_rank = -1;
    std::string m_range;  // --range A:B, "" for the whole run
    std::string m_to;
    std::string m_flamegraph;
    std::string m_at;
    int m_protocol = 4;
    std::string m_table = "operators";
    size_t m_limit = 0;
};

}  // namespace memscope::cli
