#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace memscope {

// Why an allocation exists. The order is torch.profiler's export_memory_timeline order, so charts
// and exports line up with what PyTorch users know. Rules: see trace/categorizer.h.
enum class Category : uint8_t {
    Parameter = 0,
    OptimizerState = 1,
    Input = 2,
    Temporary = 3,
    Activation = 4,
    Gradient = 5,
    AutogradDetail = 6,
    Unknown = 7,
};

inline constexpr int kCategoryCount = 8;

std::string toString(Category category);  // "PARAMETER", "OPTIMIZER_STATE", ...
std::optional<Category> parseCategory(const std::string& text);

}  // namespace memscope
