#pragma once

#include <CLI/App.hpp>

#include "trace/trace.h"

#include <string>

namespace memscope::cli {

// `memscope-cli info RUN.memscope`: the run's summary and its top operators by memory and time.
// A multi-rank run directory (io/run_directory.h): a table of the ranks, or one rank with --rank.
class InfoCommand {
  public:
    explicit InfoCommand(CLI::App& parent);

    bool selected() const { return m_app->parsed(); }
    int run();

  private:
    CLI::App* m_app;
    std::string m_path;
    std::string m_range;  // --range A:B, "" for the whole run
    size_t m_top = 10;
    bool m_json = false;
    int m_rank = -1;
    bool m_modules = false;  // --modules: the module table (explain/module_table.h)
    bool m_growth = false;   // --growth: what each step keeps (explain/step_growth.h)
    std::string m_at;        // --at: its moment, "" for the peak
    int m_depth = -1;        // --depth: rows down to this depth, -1 for all
    std::string m_fit;       // --fit SWEEPDIR: a Python program's advice from a fit of its sweep
    int printModules(const Trace& trace) const;
};

}  // namespace memscope::cli
