#include "trace/categorizer.h"

namespace memscope {

namespace {

Category byTiming(const EventColumns& ev, const Allocation& a, bool saw_backward_start) {
    if (a.alloc_event < 0) {
        return Category::Unknown;
    }
    const auto alloc_phase = static_cast<Phase>(ev.phase[a.alloc_event]);
    const auto alloc_step = ev.step[a.alloc_event];
    const bool freed = a.free_event >= 0;
    const auto free_phase = freed ? static_cast<Phase>(ev.phase[a.free_event]) : Phase::Other;
    const bool same_step = freed && ev.step[a.free_event] == alloc_step;
    switch (alloc_phase) {
        case Phase::Forward:
            if (freed && free_phase == Phase::Backward && same_step)
                return Category::Activation;
            if (saw_backward_start)
                return Category::Activation;
            if (freed && free_phase == Phase::Forward && same_step)
                return Category::Temporary;
            return freed ? Category::Temporary : Category::Unknown;
        case Phase::Backward:
            if (freed && free_phase == Phase::Backward && same_step)
                return Category::Temporary;
            return Category::AutogradDetail;
        case Phase::Optimizer:
        case Phase::Other:
        case Phase::Init:
            if (freed && free_phase == alloc_phase && same_step)
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
    const auto alloc_phase = static_cast<Phase>(ev.phase[a.alloc_event]);
    const auto alloc_step = ev.step[a.alloc_event];
    const bool freed = a.free_event >= 0;
    const auto free_phase = freed ? static_cast<Phase>(ev.phase[a.free_event]) : Phase::Other;
    const bool same_step = freed && ev.step[a.free_event] == alloc_step;
    const bool freed_in_phase = freed && same_step && free_phase == alloc_phase;
    switch (alloc_phase) {
        case Phase::Forward:
            return byTiming(ev, a, aliveAtBackward(ev, a, backward_start));
        case Phase::Backward:
            if (freed_in_phase) {
                return Category::Temporary;
            }
            return accumulate_grad ? Category::Gradient : Category::AutogradDetail;
        case Phase::Optimizer:
            if (freed_in_phase) {
                return Category::Temporary;
            }
            return !freed || ev.step[a.free_event] > alloc_step ? Category::OptimizerState
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
    return byTiming(ev, a, aliveAtBackward(ev, a, backward_start));
}

}  // namespace memscope
