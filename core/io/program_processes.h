#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace memscope {

// A Python program's processes, each recorded by itself, put together when the program ends.
//
// The program's first process records into OUT as any single process does. Every other Python
// process it starts (torch.multiprocessing.spawn and multiprocessing's children, torchrun's
// workers, subprocess children, children forked after it imported torch: those begin with what
// their parent had alive as allocated before recording) records, once it imports torch, into the
// staging folder
// OUT.procs: proc-PID.memscope with its journal while it runs, and proc-PID.json, what the
// process is (pid, parent pid, role, and its rank in a process group once init_process_group
// ran, else RANK from its environment; "events" once it saved). python/memscope/_child.py writes
// them.
//
// assemble() runs when the program's first process is done (the runner, memscope-cli record
// --python, python -m memscope record: the last one that sees it does the work, the others find
// nothing left to do). Journals left by processes that died are recovered; a process that never
// allocated a tensor itself (a forked child's inheritance does not count) is no rank and is
// dropped. Without any other process, OUT stays one run file
// and the staging folder goes. Otherwise OUT becomes a run directory (io/run_directory.h): the
// process-group members by their group rank first (rank I of the directory is group rank I),
// then the first process where it allocated and is in no group, then the other processes by
// pid, each entry naming its role and pid.
class ProgramProcesses {
  public:
    static std::string stagingDirOf(const std::string& out);  // OUT.procs

    struct Entry {
        std::string role;  // "spawn", "fork", "worker", "subprocess", "parent"
        int64_t pid = 0;
        int group_rank = -1;
        int group_size = 0;
        int64_t events = 0;
        std::string ending;  // how it ended ("recovered from its journal" when it died)
    };
    struct Result {
        bool directory = false;             // OUT is now a run directory
        std::vector<Entry> ranks;           // its ranks, in order (directory only)
        std::vector<Entry> dropped;         // processes that allocated nothing
        std::vector<std::string> problems;  // a journal that could not be recovered, ...
        // "2 processes recorded into OUT: rank 0 (spawn, pid 12), rank 1 (spawn, pid 13)".
        std::string describe(const std::string& out) const;
    };
    // `first_pid` is the program's first process, whose recording is OUT (a file, possibly
    // with no allocation). Throws RunFileError naming the path that could not be written.
    static Result assemble(const std::string& out, int64_t first_pid);
};

}  // namespace memscope
