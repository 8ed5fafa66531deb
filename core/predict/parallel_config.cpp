#include "predict/parallel_config.h"

#include "model/config_error.h"

#include <nlohmann/json.hpp>

#include <cctype>

namespace memscope {

namespace {
struct StrategyName {
    ParallelStrategy strategy;
    const char* text;
};
constexpr StrategyName kStrategyNames[] = {
    {ParallelStrategy::Single, "single"},
    {ParallelStrategy::DataParallel, "data_parallel"},
    {ParallelStrategy::TensorParallel, "tensor_parallel"},
    {ParallelStrategy::PipelineParallel, "pipeline_parallel"},
    {ParallelStrategy::Hybrid, "hybrid"},
};
}  // namespace

std::string toString(ParallelStrategy strategy) {
    for (const auto& n : kStrategyNames) {
        if (n.strategy == strategy) {
            return n.text;
        }
    }
    return "single";
}

std::optional<ParallelStrategy> parseParallelStrategy(const std::string& text) {
    std::string t = text;
    for (auto& c : t) {
        c = c == '-' ? '_' : char(std::tolower(static_cast<unsigned char>(c)));
    }
    for (const auto& n : kStrategyNames) {
        if (t == n.text) {
            return n.strategy;
        }
    }
    if (t == "dp" || t == "ddp") {
        return ParallelStrategy::DataParallel;
    }
    if (t == "tp") {
        return ParallelStrategy::TensorParallel;
    }
    if (t == "pp") {
        return ParallelStrategy::PipelineParallel;
    }
    return std::nullopt;
}

std::vector<std::string> parallelStrategyNames() {
    std::vector<std::string> names;
    for (const auto& n : kStrategyNames) {
        names.emplace_back(n.text);
    }
    return names;
}

ParallelConfig ParallelConfig::resolved() const {
    ParallelConfig r = *this;
    if (r.gpus < 1) {
        throw ConfigError("--gpus", "must be at least 1");
    }
    if (r.zero_stage < 0 || r.zero_stage > 3) {
        throw ConfigError("--zero-stage", "must be 0, 1, 2 or 3");
    }
    if (r.gpus_per_node < 1) {
        throw ConfigError("--gpus-per-node", "must be at least 1");
    }
    if (r.data < 0 || r.tensor < 0 || r.pipeline < 0 || r.micro_batches < 0) {
        throw ConfigError("--strategy", "parallel degrees must be positive");
    }
    if (r.strategy == ParallelStrategy::Single && r.gpus > 1) {
        r.strategy = ParallelStrategy::DataParallel;
    }
    switch (r.strategy) {
        case ParallelStrategy::Single:
            r.data = r.tensor = r.pipeline = 1;
            break;
        case ParallelStrategy::DataParallel:
            r.data = r.gpus, r.tensor = 1, r.pipeline = 1;
            break;
        case ParallelStrategy::TensorParallel:
            r.data = 1, r.tensor = r.gpus, r.pipeline = 1;
            break;
        case ParallelStrategy::PipelineParallel:
            r.data = 1, r.tensor = 1, r.pipeline = r.gpus;
            break;
        case ParallelStrategy::Hybrid: {
            const int given = (r.data > 0 ? r.data : 1) * (r.tensor > 0 ? r.tensor : 1) *
                              (r.pipeline > 0 ? r.pipeline : 1);
            if (given == 0 || r.gpus % given != 0) {
                throw ConfigError(
                    "--strategy",
                    "hybrid degrees (data x tensor x pipeline = " + std::to_string(given) +
                        ") must divide the GPU count " + std::to_string(r.gpus));
            }
            if (r.data == 0) {
                r.data = r.gpus / given;
            } else if (r.tensor == 0) {
                r.tensor = r.gpus / given;
            } else if (r.pipeline == 0) {
                r.pipeline = r.gpus / given;
            }
            r.tensor = r.tensor > 0 ? r.tensor : 1;
            r.pipeline = r.pipeline > 0 ? r.pipeline : 1;
            break;
        }
    }
    if (r.data * r.tensor * r.pipeline != r.gpus) {
        throw ConfigError("--gpus", "data x tensor x pipeline parallel degrees (" +
                                        std::to_string(r.data) + " x " + std::to_string(r.tensor) +
                                        " x " + std::to_string(r.pipeline) +
                                        ") must equal the GPU count " + std::to_string(r.gpus));
    }
    if (r.micro_batches == 0) {
        r.micro_batches = r.pipeline > 1 ? 4 * r.pipeline : 1;
    }
    return r;
}

std::string ParallelConfig::describe() const {
    std::string text = toString(strategy) + " (DP=" + std::to_string(data) +
                       ", TP=" + std::to_string(tensor) + ", PP=" + std::to_string(pipeline);
    if (pipeline > 1) {
        text += ", " + std::to_string(micro_batches) + " micro-batches";
    }
    if (zero_stage > 0) {
        text += ", ZeRO-" + std::to_string(zero_stage);
    }
    return text + ")";
}

nlohmann::json ParallelConfig::toJson() const {
    return {{"strategy", toString(strategy)}, {"gpus", gpus},
            {"data_parallel", data},          {"tensor_parallel", tensor},
            {"pipeline_parallel", pipeline},  {"zero_stage", zero_stage},
            {"micro_batches", micro_batches}, {"gpus_per_node", gpus_per_node},
            {"network_gbs", network_gbs},     {"interconnect", interconnect}};
}

}  // namespace memscope
