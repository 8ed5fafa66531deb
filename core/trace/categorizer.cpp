#include "trace/categorizer.h"

#include "trace/python_frame_rule.h"

#include <optional>
#include <string_view>

namespace memscope {

namespace {

using CategorizerResult = Categorizer::Result;

// When an allocation was made and freed: what both categorizations start from, read once.
struct AllocationTiming {
    Phase alloc_phase = Phase::Other;
    int32_t alloc_step = 0;
    bool freed = false;
    Phase free_phase = Phase::Other;  // Other when never freed
    bool same_step = false;           // freed in the step it was made in

    AllocationTiming(const EventColumns& ev, const Allocation& a)
        : alloc_phase(static_cast<Phase>(ev.phase[a.alloc_event])),
          alloc_step(ev.step[a.alloc_event]),
          freed(a.free_event >= 0),
          free_phase(freed ? static_cast<Phase>(ev.phase[a.free_event]) : Phase::Other),
          same_step(freed && ev.step[a.free_event] == alloc_step) {}
};

// Made in backward: freed before its backward pass ended (a temporary), with a gradient's
// lifetime (alive when the pass ended, then freed at zero_grad, by a later backward or never),
// or kept otherwise. Nullopt for the first: the callers differ in what a temporary is.
std::optional<CategorizerResult> keptFromBackward(const Allocation& a, const AllocationTiming& t,
                                                  const BackwardEnds& backward_end) {
    const int64_t end = backward_end.after(a.alloc_event);
    if (t.freed && (end < 0 || a.free_event < end)) {
        return std::nullopt;  // freed inside the pass it was made in
    }
    if (end >= 0 &&
        (!t.freed || t.free_phase == Phase::Optimizer || t.free_phase == Phase::Backward)) {
        return CategorizerResult{Category::Gradient, CategoryRule::AliveAfterBackward};
    }
    return CategorizerResult{Category::AutogradDetail, CategoryRule::KeptAfterBackward};
}

CategorizerResult byTiming(const Allocation& a, const AllocationTiming& t, bool saw_backward_start,
                           bool alive_at_oom, const BackwardEnds& backward_end) {
    switch (t.alloc_phase) {
        case Phase::Forward:
            if (t.freed && t.free_phase == Phase::Backward && t.same_step)
                return {Category::Activation, CategoryRule::FreedInBackward};
            if (saw_backward_start)
                return {Category::Activation, CategoryRule::AliveAtBackward};
            if (alive_at_oom)
                return {Category::Activation, CategoryRule::AliveAtOutOfMemory};
            if (t.freed && t.free_phase == Phase::Forward && t.same_step)
                return {Category::Temporary, CategoryRule::FreedInPhase};
            return t.freed ? CategorizerResult{Category::Temporary, CategoryRule::ForwardFreedLater}
                           : CategorizerResult{Category::Unknown, CategoryRule::NothingTells};
        case Phase::Backward:
            if (const auto kept = keptFromBackward(a, t, backward_end)) {
                return *kept;
            }
            return {Category::Temporary, CategoryRule::FreedInPhase};
        case Phase::Optimizer:
        case Phase::Other:
        case Phase::Init:
            if (t.freed && t.free_phase == t.alloc_phase && t.same_step)
                return {Category::Temporary, CategoryRule::FreedInPhase};
            return {Category::Unknown, CategoryRule::NothingTells};
    }
    return {Category::Unknown, CategoryRule::NothingTells};
}

bool aliveAtBackward(const EventColumns& ev, const Allocation& a,
                     const BackwardStarts& backward_start) {
    if (a.alloc_event >= 0 && static_cast<Phase>(ev.phase[a.alloc_event]) == Phase::Forward) {
        const int64_t start = backward_start.at(std::max(0, ev.step[a.alloc_event]));
        if (start > a.alloc_event) {
            return a.free_event < 0 || a.free_event > start;
        }
    }
    return false;
}

// Made in forward before that forward's out-of-memory event, and alive at it.
bool aliveAtForwardOom(const EventColumns& ev, const Allocation& a,
                       const BackwardStarts& forward_oom) {
    if (a.alloc_event >= 0 && static_cast<Phase>(ev.phase[a.alloc_event]) == Phase::Forward) {
        const int64_t oom = forward_oom.at(std::max(0, ev.step[a.alloc_event]));
        if (oom > a.alloc_event) {
            return a.free_event < 0 || a.free_event > oom;
        }
    }
    return false;
}

}  // namespace

Categorizer::Result Categorizer::inferredCategoryOf(const EventColumns& ev, const Allocation& a,
                                                    int64_t role,
                                                    const BackwardStarts& backward_start,
                                                    const BackwardEnds& backward_end,
                                                    const BackwardStarts& forward_oom,
                                                    bool accumulate_grad, bool collective) {
    if (role >= 0) {
        return {static_cast<Category>(role), CategoryRule::Named};
    }
    if (a.alloc_event < 0 || ev.step[a.alloc_event] < 0) {
        return {Category::BeforeRecording, CategoryRule::BeforeRecording};
    }
    if (collective) {
        return {Category::Communication, CategoryRule::MadeInCollective};
    }
    const AllocationTiming t(ev, a);
    const bool freed_in_phase = t.freed && t.same_step && t.free_phase == t.alloc_phase;
    switch (t.alloc_phase) {
        case Phase::Forward:
            return byTiming(a, t, aliveAtBackward(ev, a, backward_start),
                            aliveAtForwardOom(ev, a, forward_oom), backward_end);
        case Phase::Backward: {
            const auto kept = keptFromBackward(a, t, backward_end);
            if (!kept) {
                return {Category::Temporary, CategoryRule::FreedInPhase};
            }
            if (accumulate_grad) {
                return {Category::Gradient, CategoryRule::MadeByAccumulateGrad};
            }
            return *kept;
        }
        case Phase::Optimizer:
            if (freed_in_phase) {
                return {Category::Temporary, CategoryRule::FreedInPhase};
            }
            return !t.freed || ev.step[a.free_event] > t.alloc_step
                       ? Categorizer::Result{Category::OptimizerState,
                                             CategoryRule::KeptByOptimizer}
                       : Categorizer::Result{Category::Unknown, CategoryRule::NothingTells};
        case Phase::Init:
            return freed_in_phase
                       ? Categorizer::Result{Category::Temporary, CategoryRule::FreedInPhase}
                       : Categorizer::Result{Category::Unknown, CategoryRule::NothingTells};
        case Phase::Other:
            return {Category::Unknown, CategoryRule::NothingTells};
    }
    return {Category::Unknown, CategoryRule::NothingTells};
}

Categorizer::Result Categorizer::categoryOf(const EventColumns& ev, const Allocation& a,
                                            int64_t role, const BackwardStarts& backward_start,
                                            const BackwardEnds& backward_end,
                                            const BackwardStarts& forward_oom, bool collective) {
    if (role >= 0) {
        return {static_cast<Category>(role), CategoryRule::Named};
    }
    if (a.alloc_event < 0) {
        return {Category::Unknown, CategoryRule::NothingTells};
    }
    if (ev.step[a.alloc_event] < 0) {  // a forked child's inheritance from its parent
        return {Category::BeforeRecording, CategoryRule::BeforeRecording};
    }
    if (collective) {
        return {Category::Communication, CategoryRule::MadeInCollective};
    }
    return byTiming(a, AllocationTiming(ev, a), aliveAtBackward(ev, a, backward_start),
                    aliveAtForwardOom(ev, a, forward_oom), backward_end);
}

Categorizer::CollectiveEvidence Categorizer::collectiveEvidence(const Frame& f) {
    if (f.name == "record_param_comms" || f.name.find("c10d::") != std::string::npos) {
        return CollectiveEvidence::Operator;  // c10d::allreduce_, c10d::Reducer::...
    }
    if (f.kind != FrameKind::Other || f.file.empty()) {
        return CollectiveEvidence::Other;
    }
    const auto ends_with = [&f](std::string_view tail) {
        return f.file.size() >= tail.size() &&
               std::string_view(f.file).substr(f.file.size() - tail.size()) == tail;
    };
    if (f.file.find("torch/distributed/") != std::string::npos ||
        ends_with("torch/nn/parallel/distributed.py")) {
        return CollectiveEvidence::Library;
    }
    return PythonFrameRule::isLibrary(f.file) ? CollectiveEvidence::Other
                                              : CollectiveEvidence::Program;
}

}  // namespace memscope
