#include "trace/category_rule.h"

namespace memscope {

std::string describe(CategoryRule rule, bool inferred) {
    switch (rule) {
        case CategoryRule::Named:
            return inferred ? "named by the snapshot" : "named by the recording";
        case CategoryRule::BeforeRecording:
            return "allocated before recording started";
        case CategoryRule::FreedInBackward:
            return "made in forward, freed in backward";
        case CategoryRule::AliveAtBackward:
            return "made in forward, alive when backward began";
        case CategoryRule::FreedInPhase:
            return "made and freed in one phase";
        case CategoryRule::ForwardFreedLater:
            return "made in forward, freed later without a backward";
        case CategoryRule::MadeByAccumulateGrad:
            return "made under AccumulateGrad, kept";
        case CategoryRule::AliveAfterBackward:
            return "made in backward, alive after it";
        case CategoryRule::KeptAfterBackward:
            return "made in backward, kept, not a gradient's lifetime";
        case CategoryRule::KeptByOptimizer:
            return "made in the optimizer, kept into a later step";
        case CategoryRule::NothingTells:
            return "nothing tells its phase or lifetime";
        case CategoryRule::MadeInCollective:
            return "made inside a collective (c10d, DDP, torch.distributed)";
        case CategoryRule::AliveAtOutOfMemory:
            return "made in forward, alive when it ran out of memory";
        case CategoryRule::ParameterOfGradient:
            return "alive before the trace and to its end, one block per gradient of its size";
        case CategoryRule::StateBesideParameter:
            return "alive before the trace and to its end, beside a parameter of its size "
                   "(an optimizer's per-parameter state)";
    }
    return "nothing tells its phase or lifetime";
}

}  // namespace memscope
