#pragma once

#include <optional>
#include <string>
#include <vector>

namespace memscope {

// How a multi-process run splits the training state over its ranks (train/parallel_engine.h).
enum class ParallelMode { None, Ddp, Zero1, Zero2, Zero3 };

std::string toString(ParallelMode mode);  // "none", "ddp", "zero1", ...
std::optional<ParallelMode> parseParallelMode(const std::string& text);
std::vector<std::string> parallelModeNames();  // the multi-rank ones: ddp, zero1, zero2, zero3

}  // namespace memscope
