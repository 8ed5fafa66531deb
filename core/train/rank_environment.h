#pragma once

#include <optional>
#include <string>

namespace memscope {

// Where this process sits in a multi-process job: read from the variables torchrun sets (RANK,
// WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT), with SLURM_PROCID / SLURM_NTASKS and
// OMPI_COMM_WORLD_RANK / OMPI_COMM_WORLD_SIZE / OMPI_COMM_WORLD_LOCAL_RANK as fallbacks for
// srun and mpirun. `memscope-cli --nproc N` sets the torchrun ones for its children.
struct RankEnvironment {
    int rank = 0;
    int world_size = 1;
    int local_rank = 0;
    std::string master_addr = "127.0.0.1";
    int master_port = 29500;

    // nullopt when no job variables are set (a single process). Throws ConfigError naming the
    // variable when they are inconsistent (RANK outside [0, WORLD_SIZE), WORLD_SIZE < 1, a port
    // that is not a number in 1..65535, a rank without a world size).
    static std::optional<RankEnvironment> fromEnvironment();
};

}  // namespace memscope
