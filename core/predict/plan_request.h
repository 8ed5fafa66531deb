#pragma once

#include "predict/memory_model.h"
#include "predict/parallel_config.h"
#include "run/train_options.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace memscope {

// What the planner is asked: a workload (TrainOptions; batch_size is the global batch), the
// device by its database name, how the run is spread over GPUs, and the time assumptions.
struct PlanRequest {
    TrainOptions workload;
    MemoryModel::Semantics semantics;
    std::string device = "CPU";
    ParallelConfig parallel;
    double mfu = 0;              // 0: 40% on GPUs, or the calibrated figure
    std::string mfu_source;      // where a given mfu comes from ("calibrated from RUN")
    double train_tokens = 0;     // 0: 20 tokens per parameter (Chinchilla)
    int64_t capacity_bytes = 0;  // overrides the device's memory (0: the database's)
    bool bottlenecks = true;
    bool max_batch = false;

    // memprof-training's YAML with model / hardware / cluster / distribution / analysis
    // sections. Errors are ConfigErrors naming the field ("model.batch_size").
    static PlanRequest fromYaml(const std::string& yaml_text);
    static PlanRequest fromYamlFile(const std::string& path);

    nlohmann::json toJson() const;
};

}  // namespace memscope
