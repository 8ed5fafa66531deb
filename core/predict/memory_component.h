#pragma once

#include <array>
#include <optional>
#include <string>

namespace memscope {

// What a predicted byte is for. The first eight are what the allocator counts (and what the
// recorder's categories measure); the last two exist only on GPUs, outside or on top of the
// allocated bytes.
enum class MemoryComponent : int {
    Parameters = 0,
    Gradients,
    OptimizerState,
    Inputs,
    Activations,        // saved for backward (or, with checkpointing, the saved block inputs)
    AutocastCache,      // low-precision weight copies kept until the step ends
    LogitsLoss,         // logits, their fp32 copy and the log-softmax saved by the loss
    Temporaries,        // made and freed within a phase: op outputs, gradients in flight, optimizer
    Workspace,          // GPU context and library workspaces (outside the allocator)
    AllocatorOverhead,  // reserved minus allocated on a caching allocator
};

inline constexpr int kMemoryComponentCount = 10;
// Components the allocation hook counts (everything before Workspace).
inline constexpr int kAllocatedComponentCount = 8;

using ComponentBytes = std::array<int64_t, kMemoryComponentCount>;

std::string toString(MemoryComponent component);     // "optimizer_state"
std::string displayName(MemoryComponent component);  // "Optimizer state"
std::optional<MemoryComponent> parseMemoryComponent(const std::string& text);
int64_t allocatedTotal(const ComponentBytes& bytes);
int64_t total(const ComponentBytes& bytes);

}  // namespace memscope
