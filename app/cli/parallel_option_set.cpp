#include "parallel_option_set.h"

#include "model/config_error.h"
#include "run/parallel_rules.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

namespace memscope::cli {

void ParallelOptionSet::addTo(CLI::App& app) {
    app.add_option("--nproc", m_nproc,
                   "Start N training processes (ranks) on this machine (default 1)");
    app.add_option("--parallel", m_parallel,
                   "Multi-process strategy: ddp, zero1, zero2, zero3 (default ddp)");
    app.add_option("--master-port", m_masterPort,
                   "Rendezvous port on 127.0.0.1 for --nproc (default: a free one)");
    app.add_option("--bucket-mib", m_bucketMib,
                   "Gradient bucket size for the collectives in MiB (default 25)");
    app.add_option("--comm-timeout", m_commTimeout,
                   "Seconds a rank waits for the others (rendezvous, collectives; default 30)");
}

ParallelOptionSet::Role ParallelOptionSet::resolve(TrainOptions& options) {
    if (m_nproc < 1) {
        ParallelRules::check(options, ParallelMode::None, m_nproc);  // names --nproc
    }
    if (m_masterPort < 0 || m_masterPort > 65535) {
        throw ConfigError("--master-port", std::to_string(m_masterPort) + " is not a port");
    }
    if (!(m_commTimeout > 0)) {
        throw ConfigError("--comm-timeout", "must be positive");
    }
    ParallelRules::checkBucket(m_bucketMib);
    m_mode = ParallelMode::None;
    if (!m_parallel.empty()) {
        const auto mode = parseParallelMode(m_parallel);
        if (!mode || *mode == ParallelMode::None) {
            throw ConfigError("--parallel",
                              "unknown strategy '" + m_parallel + "' (ddp, zero1, zero2, zero3)");
        }
        m_mode = *mode;
    }
    m_env = RankEnvironment::fromEnvironment();
    if (m_env && m_nproc > 1 && m_nproc != m_env->world_size) {
        throw ConfigError("--nproc", std::to_string(m_nproc) + " does not match WORLD_SIZE=" +
                                         std::to_string(m_env->world_size) +
                                         " of the job this process is in");
    }
    const int world = m_env ? m_env->world_size : m_nproc;
    if (world == 1 && m_mode == ParallelMode::None) {
        return Role::Single;
    }
    if (m_mode == ParallelMode::None) {
        m_mode = ParallelMode::Ddp;
    }
    // The CPU runs on Gloo, a CUDA device on NCCL where LibTorch has it (DistributedContext::
    // connect refuses a CUDA device otherwise, naming --device).
    ParallelRules::check(options, m_mode, world);
    if (options.device == "cuda" && m_env) {
        // One GPU a rank: the rank's LOCAL_RANK picks it, as torchrun's scripts do.
        options.device = "cuda:" + std::to_string(m_env->local_rank);
    }
    if (options.threads == 0) {
        int local_world = world;
        if (const char* lws = std::getenv("LOCAL_WORLD_SIZE"); lws != nullptr && *lws != '\0') {
            local_world = std::max(1, std::atoi(lws));
        }
        const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
        options.threads = std::max(1, cores / local_world);
    }
    if (!m_env) {
        if (m_nproc > 1) {
            return Role::Launcher;
        }
        // One rank of its own (--parallel with --nproc 1): a world of one on a free port.
        RankEnvironment alone;
        alone.master_port = m_masterPort;
        m_env = alone;
    }
    return Role::Rank;
}

}  // namespace memscope::cli
