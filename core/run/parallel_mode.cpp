#include "run/parallel_mode.h"

#include <utility>

namespace memscope {

namespace {

const std::vector<std::pair<ParallelMode, std::string>> kModes{
    {ParallelMode::None, "none"},   {ParallelMode::Ddp, "ddp"},     {ParallelMode::Zero1, "zero1"},
    {ParallelMode::Zero2, "zero2"}, {ParallelMode::Zero3, "zero3"},
};

}  // namespace

std::string toString(ParallelMode mode) {
    for (const auto& [value, name] : kModes) {
        if (value == mode) {
            return name;
        }
    }
    return "none";
}

std::optional<ParallelMode> parseParallelMode(const std::string& text) {
    for (const auto& [value, name] : kModes) {
        if (text == name) {
            return value;
        }
    }
    return std::nullopt;
}

std::vector<std::string> parallelModeNames() {
    return {"ddp", "zero1", "zero2", "zero3"};
}

}  // namespace memscope
