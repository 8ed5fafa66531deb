#include "run_indexes.h"

#include "trace/trace.h"

#include <utility>

namespace memscope {

RunIndexes::RunIndexes(std::shared_ptr<const Trace> trace)
    : m_trace(std::move(trace)), m_attribution(m_trace->stacks) {
    const auto& events = m_trace->events;
    for (size_t i = 0; i < events.count(); ++i) {
        if (static_cast<EventKind>(events.kind[i]) == EventKind::Oom) {
            m_ooms.push_back(int64_t(i));
        }
    }
}

uint32_t RunIndexes::stackOfAllocation(int64_t a) const {
    const Allocation& allocation = m_trace->allocations()[size_t(a)];
    const int64_t e = allocation.event();
    return e >= 0 ? m_trace->events.stack[size_t(e)] : 0;
}

const std::string& RunIndexes::moduleOfAllocation(int64_t a) const {
    return m_attribution.moduleOf(stackOfAllocation(a));
}

const std::string& RunIndexes::operatorOfAllocation(int64_t a) const {
    return m_attribution.operatorOf(stackOfAllocation(a));
}

}  // namespace memscope
