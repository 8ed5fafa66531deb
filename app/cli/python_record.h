#pragma once

#include <string>
#include <vector>

namespace memscope::cli {

// `memscope-cli record [RECORDER OPTIONS] [--python-exe EXE] [--fit DIR --check-advice]
// --python (SCRIPT.py | -m MODULE) [ARGS...]`: runs a Python program under the package's own
// supervisor (`EXE -m memscope record`, python/memscope/_record.py, with this build's python
// folder on PYTHONPATH) and returns the program's own exit status (128 + N when a signal N killed
// it). The recorder's options are run/recorder_option_table.h's rows, checked here and handed on
// as given. Everything after
// --python belongs to the program. SIGINT or SIGTERM sent to this process (a GUI's Stop) goes on
// to the program; one typed at a terminal reaches both already. When the program dies before it
// saves its run (killed, crashed), the run is recovered from its journal.
//
// For a front end (the GUI's "Python program" source): start this command line in the program's
// working folder; RUN.journal appears once the interpreter has imported torch and the recorder
// started, grows every --poll-ms (operators once a second), and is replaced by RUN when the run
// is saved: follow it with a JournalReader as a rank's journal. Stop: SIGINT to this process
// (the program gets KeyboardInterrupt, the run is saved, status 130); SIGTERM if it ignores that
// (the program dies, the journal is recovered, 143). Status 2 with no RUN: refused, stderr's
// last line says why. A bare `record --python` says whether this build has the recorder.
class PythonRecord {
  public:
    // True when `args` (the words after "record") ask for a Python program.
    static bool requested(const std::vector<std::string>& args);
    static int run(const std::vector<std::string>& args);
    // The folder that holds the memscope package (with the extension), or "" when this build
    // has none: $MEMSCOPE_PYTHONPATH, the build's python/ folder, or PREFIX/lib/memscope/python.
    static std::string packageDir();
};

}  // namespace memscope::cli
