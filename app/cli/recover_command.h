#pragma once

#include <CLI/App.hpp>

#include <string>

namespace memscope::cli {

// `memscope-cli recover FILE [--out RUN.memscope] [--keep-journal]`: rebuilds the run file of a
// recording that died before writing it, from the journal it left beside it (FILE is the
// journal or the run file it belongs to). Every complete chunk is kept; a torn last chunk is
// dropped and the message says how many events were recovered. The journal is deleted once the
// run file is written, unless --keep-journal. Exit status: 0 recovered, 1 nothing recoverable or
// the run file could not be written, 2 bad options or no journal.
class RecoverCommand {
  public:
    explicit RecoverCommand(CLI::App& parent);

    bool selected() const { return m_app->parsed(); }
    int run();

  private:
    CLI::App* m_app;
    std::string m_file;
    std::string m_out;
    bool m_keepJournal = false;
};

}  // namespace memscope::cli
