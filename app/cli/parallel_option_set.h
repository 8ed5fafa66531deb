#pragma once

#include "run/parallel_mode.h"
#include "run/run_summary.h"
#include "run/train_options.h"
#include "train/rank_environment.h"

#include <CLI/App.hpp>
#include <nlohmann/json_fwd.hpp>

#include <memory>
#include <optional>
#include <string>

namespace memscope {
class DistributedContext;  // train/distributed_context.h: LibTorch
struct DeviceInfo;         // device/device_info.h: LibTorch
}  // namespace memscope

namespace memscope::cli {

// The multi-process options of `train` and `record` (--nproc, --parallel, --master-port,
// --bucket-mib, --comm-timeout) and what they resolve to: run alone, start N ranks of this
// program (RankLauncher), or join a job whose ranks were started by torchrun, srun, mpirun or
// `--nproc` (RankEnvironment).
class ParallelOptionSet {
  public:
    void addTo(CLI::App& app);

    enum class Role { Single, Launcher, Rank };
    // Checks the options against the environment and the training options (whose threads it
    // sets to cores / ranks when not given). Throws ConfigError naming the option.
    Role resolve(TrainOptions& options);
    // Joins the job (Role::Rank). Throws ConfigError (rendezvous failed). This and
    // multiRankSummary are in parallel_option_set_run.cpp (memscope_cli: LibTorch).
    // Joins the job this rank is in; its collectives run on `device` (Gloo or NCCL).
    std::shared_ptr<DistributedContext> connect(const DeviceInfo& device) const;

    int nproc() const { return m_nproc; }
    int masterPort() const { return m_masterPort; }
    double commTimeoutSeconds() const { return m_commTimeout; }
    ParallelMode mode() const { return m_mode; }
    int64_t bucketBytes() const { return int64_t(m_bucketMib * (1 << 20)); }
    const std::optional<RankEnvironment>& environment() const { return m_env; }

    // Rank 0's --summary-json for a multi-rank run: its own summary plus world_size, parallel,
    // global_batch_size and ranks [{rank, steady_peak_allocated_bytes, peak_allocated_bytes,
    // avg_step_s}] gathered over c10d (left out when a rank is gone).
    static nlohmann::json multiRankSummary(const RunSummary& summary, DistributedContext& context);

  private:
    int m_nproc = 1;
    std::string m_parallel;
    int m_masterPort = 0;
    double m_bucketMib = 25;
    double m_commTimeout = 30;
    ParallelMode m_mode = ParallelMode::None;
    std::optional<RankEnvironment> m_env;
};

}  // namespace memscope::cli
