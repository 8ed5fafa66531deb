#pragma once

#include "model/model_cost.h"
#include "run/step_metrics.h"
#include "run/train_options.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace memscope {

// What a run reports at the end (or when cancelled or failed: then over the steps it finished).
struct RunSummary {
    TrainOptions options;
    int64_t parameters = 0;
    FlopCount flops_per_step;
    std::vector<StepMetrics> steps;
    bool cancelled = false;
    bool out_of_memory = false;  // the run stopped on an (emulated or real) out-of-memory error
    std::string error;           // empty when the run finished or was cancelled
    int threads = 0;
    // The fewest threads a step ran with: below `threads` when other processes kept cores busy
    // and the trainer gave them back (ThreadGovernor); 0 when the count was not adapted.
    int fewest_threads = 0;
    std::string device;
    std::string device_name;
    std::string torch_version;
    double peak_flops_per_s = 0;
    std::string peak_flops_method;
    double wall_s = 0;  // whole run, initialisation included

    // Multi-process runs: this rank, the world size and the strategy (run/parallel_mode.h);
    // the global batch is options.batch_size x world_size.
    int rank = 0;
    int world_size = 1;
    std::string parallel = "none";
    int64_t communication_bytes = 0;  // payload handed to collectives by this rank
    // What a ring algorithm sends from this rank for those collectives (DistributedContext::
    // sentBytes): the figure the planner's communication volume predicts.
    int64_t communication_sent_bytes = 0;

    int64_t peak_allocated_bytes = 0;  // over the whole run
    int64_t init_allocated_bytes = 0;  // after building the model and optimizer
    // What a GPU's caching allocator held when the run's hook was installed (a cuBLAS workspace
    // and blocks of an earlier GEMM, say): in its own figures, not in the recorded ones; -1 on
    // the CPU.
    int64_t allocator_allocated_at_start_bytes = -1;

    // Derived from steps (timed steps are the non-warmup ones).
    int64_t timedSteps() const;
    double avgStep() const;
    double avgForward() const;
    double avgBackward() const;
    double avgOptimizer() const;
    double samplesPerSecond() const;
    double tokensPerSecond() const;
    double modelFlopsPerSecond() const;
    double mfu() const;
    int64_t step1PeakAllocated() const;
    int64_t steadyPeakAllocated() const;  // max over steps after the first; 0 if only one

    nlohmann::json toJson() const;
    // The workshop-style "Performance Summary" block.
    std::string toText() const;
};

std::string formatBytes(int64_t bytes);  // "12.3 MiB"
// A predicted (fractional) byte count, rounded to whole bytes and shown as formatBytes does.
std::string formatPredictedBytes(double bytes);

}  // namespace memscope
