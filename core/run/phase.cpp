#include "run/phase.h"

namespace memscope {

std::string toString(Phase phase) {
    switch (phase) {
        case Phase::Init:
            return "init";
        case Phase::Forward:
            return "forward";
        case Phase::Backward:
            return "backward";
        case Phase::Optimizer:
            return "optimizer";
        case Phase::Other:
            return "other";
    }
    return "other";
}

std::optional<Phase> parsePhase(const std::string& text) {
    for (int i = 0; i < kPhaseCount; ++i) {
        if (toString(static_cast<Phase>(i)) == text) {
            return static_cast<Phase>(i);
        }
    }
    return std::nullopt;
}

}  // namespace memscope
