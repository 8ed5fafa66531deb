#pragma once

#include <cstddef>
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
    // Buffers of collective communication: DDP/ZeRO gradient buckets, ZeRO-3's gathered
    // parameters, reduce outputs. After Unknown so that run files written before it keep their
    // numbers.
    Communication = 8,
    // Imported snapshots: alive before the trace began (a block of the snapshot's segments with
    // no alloc in the trace, or one the trace frees without having allocated it). Last, for the
    // same reason.
    BeforeRecording = 9,
};

inline constexpr int kCategoryCount = 10;

// A stored category number as an index into per-category arrays; numbers from a newer or damaged
// file count as Unknown.
inline size_t categoryIndex(int value) {
    return value >= 0 && value < kCategoryCount ? size_t(value) : size_t(Category::Unknown);
}

std::string toString(Category category);  // "PARAMETER", "OPTIMIZER_STATE", ...
std::optional<Category> parseCategory(const std::string& text);

}  // namespace memscope
