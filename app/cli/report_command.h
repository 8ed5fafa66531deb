#pragma once

#include <CLI/App.hpp>

#include <string>
#include <vector>

namespace memscope::cli {

// `memscope-cli report RUN... --out report.md`: a Markdown report over recorded runs that fills
// in the workshop's and CS336's memory tables and names the runs still missing.
class ReportCommand {
  public:
    explicit ReportCommand(CLI::App& parent);

    bool selected() const { return m_app->parsed(); }
    // Exit status: 0 written, 1 unreadable run or unwritable output, 2 bad options.
    int run();

  private:
    CLI::App* m_app;
    std::vector<std::string> m_paths;
    std::string m_out = "report.md";
    std::string m_range;               // --range A:B for every run, "" for whole runs
    std::vector<std::string> m_sizes;  // --sizes RUN:s=128,b=4 (report/size_table_chapter.h)
};

}  // namespace memscope::cli
