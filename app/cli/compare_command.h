#pragma once

#include <CLI/App.hpp>

#include <string>

namespace memscope::cli {

// `memscope-cli compare A.memscope B.memscope`: what changed from run A to run B (peaks,
// categories at the peak, modules and operators), as a table on standard output and optionally
// as CSV and Markdown.
class CompareCommand {
  public:
    explicit CompareCommand(CLI::App& parent);

    bool selected() const { return m_app->parsed(); }
    // Exit status: 0 done, 1 unreadable run or unwritable output, 2 bad options.
    int run();

  private:
    CLI::App* m_app;
    std::string m_a;
    std::string m_b;
    std::string m_csv;
    std::string m_markdown;
    int m_rankA = -1;
    int m_rankB = -1;
    size_t m_top = 15;
    std::string m_at;  // --at: the aligned moment (analysis/aligned_difference.h), "" for none
    bool m_json = false;
};

}  // namespace memscope::cli
