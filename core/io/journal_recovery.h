#pragma once

#include "trace/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace memscope {

// Rebuilds a Trace from a recording journal (io/run_journal.h describes the format) that a run
// left behind when it died before writing its run file. Every complete chunk is kept, in order;
// reading stops at the first chunk that is torn (cut short by the crash), fails its checksum or
// does not continue the chunk before, and the result says so.
class JournalRecovery {
  public:
    struct Result {
        Trace trace;             // finalized, with a summary
        int64_t chunks = 0;      // complete chunks kept
        int64_t events = 0;      // events recovered
        int64_t steps = 0;       // steps that finished before the end
        int64_t bytes_kept = 0;  // journal bytes read into the trace
        int64_t bytes_dropped = 0;
        std::string dropped_reason;  // empty when the journal ended on a chunk boundary

        // "recovered 123456 events (12 steps) from 40 chunks; ..." for the user.
        std::string describe() const;
    };

    // Reads PATH. Throws RunFileError naming PATH when it is not a journal at all (wrong magic,
    // newer version, nothing recoverable in it).
    static Result recover(const std::string& path);
    // A Python program's run that ended (`ending`: "exit status 1", "killed by SIGKILL") before
    // it saved: recovers JOURNAL, writes its run file OUT with the ending in the summary's
    // "program" and removes the journal. What the program's recorder (memscope-cli record
    // --python, python -m memscope record) does after a crash. Throws as recover(), or
    // RunFileError naming OUT when it cannot be written (the journal is kept then).
    static Result saveProgramRun(const std::string& journal, const std::string& out,
                                 const std::string& ending, int exit_status);

    // Journals ("*.journal") in DIR, oldest first; empty when DIR does not exist.
    static std::vector<std::string> findJournals(const std::string& dir);
};

}  // namespace memscope
