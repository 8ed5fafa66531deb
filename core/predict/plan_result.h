#pragma once

#include "predict/device_spec.h"
#include "predict/memory_prediction.h"
#include "predict/parallel_config.h"
#include "predict/plan_request.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace memscope {

// Everything the planner answers for one request.
struct PlanResult {
    struct Time {
        double flops_per_step = 0;  // executed, recomputation included, whole step all GPUs
        double peak_flops = 0;      // per GPU, the run's dtype
        double mfu = 0;
        std::string mfu_source;
        double compute_s = 0;
        double communication_s = 0;
        double bubble_s = 0;
        double step_s = 0;
        double tokens_per_s = 0;
        double scaling_efficiency = 1;   // compute / step time
        double communication_bytes = 0;  // per GPU per step
        double train_tokens = 0;
        double steps = 0;
        double total_s = 0;
    };
    struct Bottleneck {
        std::string kind;  // memory_capacity, attention_memory, optimizer_state, logits, ...
        std::string message;
        double share = 0;  // of the per-GPU peak, or of the step time
    };
    struct Recommendation {
        std::string priority;  // critical, high, medium, low
        std::string title;
        std::string change;  // the option to set
        int64_t per_gpu_before = 0;
        int64_t per_gpu_after = 0;
        double step_s_before = 0;
        double step_s_after = 0;
        bool makes_fit = false;
        int64_t saving() const { return per_gpu_before - per_gpu_after; }
    };
    struct StrategyOption {
        ParallelConfig parallel;
        int64_t per_gpu_bytes = 0;
        bool fits = false;
        double step_s = 0;
        double tokens_per_s = 0;
        double scaling_efficiency = 0;
    };

    PlanRequest request;
    DeviceSpec device;
    ParallelConfig parallel;  // resolved
    int64_t micro_batch = 0;  // per GPU and pipeline micro-batch
    MemoryPrediction
        memory;  // one GPU's micro-batch: data parallel replayed per rank, else unsharded
    ComponentBytes per_gpu{};  // sharded, with workspace and allocator overhead
    int64_t per_gpu_total = 0;
    // The steady state alone (every step after the first): what a recorded run's steady peak
    // per rank is compared with (bench_parallel_accuracy).
    int64_t per_gpu_steady_total = 0;
    int64_t capacity = 0;
    int64_t usable = 0;
    bool fits = false;
    int64_t headroom = 0;  // usable - per_gpu_total (negative: overflow)
    Time time;
    int64_t max_batch = -1;  // global batch; -1 when not searched, 0 when not even 1 fits
    // The two things "forward only" is said of, for one GPU's micro-batch, allocated: inference
    // (--profile-type forward: torch.no_grad, each activation freed once used) and a forward
    // with autograd on and no backward after it (every activation autograd saves is kept: a
    // training step's forward, step 1). Filled by Planner::plan whatever the request's profile.
    int64_t inference_peak = 0;
    int64_t forward_with_autograd_peak = 0;
    std::vector<Bottleneck> bottlenecks;
    std::vector<Recommendation> recommendations;
    std::vector<StrategyOption> strategies;
    std::vector<std::string> assumptions;

    nlohmann::json toJson() const;
};

}  // namespace memscope
