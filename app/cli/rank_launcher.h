#pragma once

#include <string>
#include <vector>

namespace memscope::cli {

// `--nproc N`: starts N copies of this program (/proc/self/exe with the same arguments) as
// ranks 0..N-1 of a job on 127.0.0.1, the way torchrun does (RANK, WORLD_SIZE, LOCAL_RANK,
// LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT), and waits for them. Ctrl+C reaches every rank
// (they share the terminal's process group; SIGINT/SIGTERM sent to the launcher alone are
// passed on), each stops and keeps what it recorded. A rank that dies is named; the others
// stop at their next collective (at the latest after --comm-timeout) and are killed if they
// have not exited 15 s after that. A rank that exits 2 (bad options, no rendezvous) stops the
// others at once.
class RankLauncher {
  public:
    // The command line to start the ranks with (main() stores it).
    static void setArguments(int argc, char** argv);

    // Throws ConfigError naming --master-port when the given port is in use. Returns the exit
    // status: 0 all ranks finished, 2 a rank had bad options, 130 interrupted, else 1.
    static int run(int nproc, int master_port, double comm_timeout_s);

    // A port on 127.0.0.1 that was free a moment ago.
    static int freePort();

  private:
    static std::vector<std::string> s_arguments;
};

}  // namespace memscope::cli
