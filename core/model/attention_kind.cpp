#include "model/attention_kind.h"

namespace memscope {

std::string toString(AttentionKind kind) {
    switch (kind) {
        case AttentionKind::Eager:
            return "eager";
        case AttentionKind::Fused:
            return "fused";
        case AttentionKind::Sdpa:
            return "sdpa";
        case AttentionKind::MemoryEfficient:
            return "memory-efficient";
    }
    return "eager";
}

std::optional<AttentionKind> parseAttentionKind(const std::string& text) {
    for (auto kind : {AttentionKind::Eager, AttentionKind::Fused, AttentionKind::Sdpa,
                      AttentionKind::MemoryEfficient}) {
        if (toString(kind) == text) {
            return kind;
        }
    }
    if (text == "memory_efficient" || text == "mem-efficient") {
        return AttentionKind::MemoryEfficient;
    }
    return std::nullopt;
}

std::vector<std::string> attentionKindNames() {
    return {"eager", "fused", "sdpa", "memory-efficient"};
}

}  // namespace memscope
