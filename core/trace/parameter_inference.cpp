#include "trace/parameter_inference.h"

#include <algorithm>
#include <unordered_map>
#include <utility>
#include <vector>

namespace memscope {

namespace {

enum class Role : uint8_t { Parameter, State };

bool isCandidate(const Trace& trace, const Allocation& a) {
    const bool before_trace = a.alloc_event >= 0 && trace.events.step[size_t(a.alloc_event)] < 0;
    const bool inferred_before = a.rule == CategoryRule::BeforeRecording ||
                                 a.rule == CategoryRule::ParameterOfGradient ||
                                 a.rule == CategoryRule::StateBesideParameter;
    return before_trace && a.free_event < 0 && inferred_before;
}

// The match, and (when `roles` is set) which allocation takes which role.
ParameterInference::Match plan(const Trace& trace, std::vector<std::pair<size_t, Role>>* roles) {
    ParameterInference::Match m;
    if (!trace.meta.categories_inferred) {
        return m;
    }
    const auto& allocations = trace.allocations();
    const auto& ev = trace.events;
    // Gradients per step; the step with the most.
    std::unordered_map<int32_t, int64_t> per_step;
    for (const Allocation& a : allocations) {
        if (a.category == Category::Gradient && a.alloc_event >= 0) {
            ++per_step[ev.step[size_t(a.alloc_event)]];
        }
    }
    for (const auto& [step, count] : per_step) {
        if (count > m.gradients || (count == m.gradients && step < m.step)) {
            m.step = step;
            m.gradients = count;
        }
    }
    if (m.gradients == 0) {
        return m;
    }
    std::unordered_map<int64_t, int64_t> wanted;  // size -> gradients of that size
    for (const Allocation& a : allocations) {
        if (a.category == Category::Gradient && a.alloc_event >= 0 &&
            ev.step[size_t(a.alloc_event)] == m.step) {
            ++wanted[a.size];
        }
    }
    std::unordered_map<int64_t, std::vector<size_t>> found;  // size -> candidates
    for (size_t i = 0; i < allocations.size(); ++i) {
        const Allocation& a = allocations[i];
        if (wanted.count(a.size) != 0 && isCandidate(trace, a)) {
            found[a.size].push_back(i);
        }
    }
    for (const auto& [size, count] : wanted) {
        const auto it = found.find(size);
        const int64_t have = it == found.end() ? 0 : int64_t(it->second.size());
        m.unmatched += std::max<int64_t>(0, count - have);
    }
    if (!m.applies()) {
        return m;
    }
    bool optimizer = false;
    for (size_t i = 0; i < ev.count() && !optimizer; ++i) {
        optimizer = static_cast<Phase>(ev.phase[i]) == Phase::Optimizer;
    }
    for (auto& [size, blocks] : found) {
        const int64_t count = wanted[size];
        std::sort(blocks.begin(), blocks.end(), [&allocations](size_t x, size_t y) {
            return allocations[x].addr < allocations[y].addr;
        });
        // One parameter per gradient, then up to two blocks of state per parameter.
        const int64_t per_gradient =
            optimizer ? std::min<int64_t>(3, int64_t(blocks.size()) / count) : 1;
        for (int64_t k = 0; k < count * per_gradient; ++k) {
            const Role role = k < count ? Role::Parameter : Role::State;
            if (role == Role::Parameter) {
                ++m.parameters;
                m.parameter_bytes += size;
            } else {
                ++m.states;
                m.state_bytes += size;
            }
            if (roles) {
                roles->emplace_back(blocks[size_t(k)], role);
            }
        }
    }
    return m;
}

}  // namespace

ParameterInference::Match ParameterInference::match(const Trace& trace) {
    return plan(trace, nullptr);
}

ParameterInference::Match ParameterInference::apply(Trace& trace) {
    std::vector<std::pair<size_t, Role>> roles;
    const Match m = plan(trace, &roles);
    for (const auto& [index, role] : roles) {
        AllocationRecord& a = trace.m_allocations[index];
        if (role == Role::Parameter) {
            a.category = Category::Parameter;
            a.rule = CategoryRule::ParameterOfGradient;
        } else {
            a.category = Category::OptimizerState;
            a.rule = CategoryRule::StateBesideParameter;
        }
    }
    return m;
}

}  // namespace memscope
