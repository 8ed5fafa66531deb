#include "predict/memory_component.h"

namespace memscope {

namespace {
struct ComponentNames {
    const char* key;
    const char* display;
};
constexpr ComponentNames kComponentNames[kMemoryComponentCount] = {
    {"parameters", "Parameters"},           {"gradients", "Gradients"},
    {"optimizer_state", "Optimizer state"}, {"inputs", "Inputs"},
    {"activations", "Activations"},         {"autocast_cache", "Autocast weight cache"},
    {"logits_loss", "Logits and loss"},     {"temporaries", "Temporaries"},
    {"workspace", "Context and workspace"}, {"allocator_overhead", "Allocator overhead"},
};
}  // namespace

std::string toString(MemoryComponent component) {
    return kComponentNames[static_cast<int>(component)].key;
}

std::string displayName(MemoryComponent component) {
    return kComponentNames[static_cast<int>(component)].display;
}

std::optional<MemoryComponent> parseMemoryComponent(const std::string& text) {
    for (int i = 0; i < kMemoryComponentCount; ++i) {
        if (text == kComponentNames[i].key) {
            return static_cast<MemoryComponent>(i);
        }
    }
    return std::nullopt;
}

int64_t allocatedTotal(const ComponentBytes& bytes) {
    int64_t sum = 0;
    for (int i = 0; i < kAllocatedComponentCount; ++i) {
        sum += bytes[i];
    }
    return sum;
}

int64_t total(const ComponentBytes& bytes) {
    int64_t sum = 0;
    for (auto b : bytes) {
        sum += b;
    }
    return sum;
}

}  // namespace memscope
