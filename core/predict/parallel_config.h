#pragma once

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace memscope {

enum class ParallelStrategy { Single, DataParallel, TensorParallel, PipelineParallel, Hybrid };

std::string toString(ParallelStrategy strategy);  // "data_parallel"
std::optional<ParallelStrategy> parseParallelStrategy(const std::string& text);
std::vector<std::string> parallelStrategyNames();

// How a run is spread over GPUs: data x tensor x pipeline parallel degrees, ZeRO stage, and the
// micro-batches of a pipeline. `field_prefix` in errors is the CLI option or YAML section.
struct ParallelConfig {
    ParallelStrategy strategy = ParallelStrategy::Single;
    int gpus = 1;
    int data = 0;  // 0: derived from the strategy and the GPU count
    int tensor = 0;
    int pipeline = 0;
    int zero_stage = 0;
    int micro_batches = 0;     // pipeline micro-batches per step; 0: 4 x pipeline degree
    int gpus_per_node = 8;     // beyond one node, data-parallel traffic crosses the network
    double network_gbs = 50;   // inter-node bandwidth per GPU (400 Gb/s InfiniBand)
    std::string interconnect;  // overrides the device's link when set

    // Degrees filled in and checked (their product must be the GPU count). Throws ConfigError.
    ParallelConfig resolved() const;
    int nodes() const { return (gpus + gpus_per_node - 1) / gpus_per_node; }
    // "data_parallel (DP=4, TP=1, PP=1)" plus ", ZeRO-2" when set.
    std::string describe() const;
    nlohmann::json toJson() const;
};

}  // namespace memscope
