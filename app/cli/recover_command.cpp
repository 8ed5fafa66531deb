#include "recover_command.h"

#include "cli_support.h"
#include "io/journal_recovery.h"
#include "io/run_file.h"
#include "io/run_journal.h"
#include "run/text_format.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace memscope::cli {

RecoverCommand::RecoverCommand(CLI::App& parent) {
    m_app = parent.add_subcommand(
        "recover", "Rebuild the run file of a recording that died, from its journal");
    m_app
        ->add_option("file", m_file,
                     "The journal (RUN.memscope.journal) or the run file it belongs to")
        ->required();
    m_app->add_option("--out,-o", m_out, "Run file to write (default: the one the run meant)");
    m_app->add_flag("--keep-journal", m_keepJournal,
                    "Keep the journal after the run file is written");
}

int RecoverCommand::run() {
    namespace fs = std::filesystem;
    std::error_code ec;
    std::string journal = m_file;
    if (!RunJournal::isJournalPath(journal)) {
        journal = RunJournal::pathFor(m_file);
    }
    if (!fs::is_regular_file(journal, ec)) {
        return reportUsageError("recover: no journal '" + journal +
                                "' (a run that finished leaves none)");
    }
    const std::string out = m_out.empty() ? RunJournal::runPathFor(journal) : m_out;
    JournalRecovery::Result result;
    try {
        result = JournalRecovery::recover(journal);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    std::cout << "Recovered " << journal << ": " << result.describe() << "\n";
    try {
        RunFile::save(result.trace, out);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    std::cout << "Wrote " << out << " (" << withThousands(result.events) << " events)\n";
    if (!m_keepJournal) {
        fs::remove(journal, ec);
    }
    return 0;
}

}  // namespace memscope::cli
