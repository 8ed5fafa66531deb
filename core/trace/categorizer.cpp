#include "trace/categorizer.h"

namespace memscope {

namespace {

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

Category byTiming(const AllocationTiming& t, bool saw_backward_start) {
    switch (t.alloc_phase) {
        case Phase::Forward:
            if (t.freed && t.free_phase == Phase::Backward && t.same_step)
                return Category::Activation;
            if (saw_backward_start)
                return Category::Activation;
            if (t.freed && t.free_phase == Phase::Forward && t.same_step)
                return Category::Temporary;
            return t.freed ? Category::Temporary : Category::Unknown;
        case Phase::Backward:
            if (t.freed && t.free_phase == Phase::Backward && t.same_step)
                return Category::Temporary;
            return Category::AutogradDetail;
        case Phase::Optimizer:
        case Phase::Other:
        case Phase::Init:
            if (t.freed && t.free_phase == t.alloc_phase && t.same_step)
                return Category::Temporary;
            return Category::Unknown;
    }
    return Category::Unknown;
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

}  // namespace

Category Categorizer::inferredCategoryOf(const EventColumns& ev, const Allocation& a, int64_t role,
                                         const BackwardStarts& backward_start,
                                         bool accumulate_grad) {
    if (role >= 0) {
        return static_cast<Category>(role);
    }
    if (a.alloc_event < 0 || ev.step[a.alloc_event] < 0) {
        return Category::BeforeRecording;
    }
    const AllocationTiming t(ev, a);
    const bool freed_in_phase = t.freed && t.same_step && t.free_phase == t.alloc_phase;
    switch (t.alloc_phase) {
        case Phase::Forward:
            return byTiming(t, aliveAtBackward(ev, a, backward_start));
        case Phase::Backward:
            if (freed_in_phase) {
                return Category::Temporary;
            }
            return accumulate_grad ? Category::Gradient : Category::AutogradDetail;
        case Phase::Optimizer:
            if (freed_in_phase) {
                return Category::Temporary;
            }
            return !t.freed || ev.step[a.free_event] > t.alloc_step ? Category::OptimizerState
                                                                    : Category::Unknown;
        case Phase::Init:
            return freed_in_phase ? Category::Temporary : Category::Unknown;
        case Phase::Other:
            return Category::Unknown;
    }
    return Category::Unknown;
}

Category Categorizer::categoryOf(const EventColumns& ev, const Allocation& a, int64_t role,
                                 const BackwardStarts& backward_start) {
    if (role >= 0) {
        return static_cast<Category>(role);
    }
    if (a.alloc_event < 0) {
        return Category::Unknown;
    }
    return byTiming(AllocationTiming(ev, a), aliveAtBackward(ev, a, backward_start));
}

}  // namespace memscope
