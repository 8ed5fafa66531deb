#include "analysis/span_nesting.h"

#include <algorithm>

namespace memscope {

namespace {

bool isAncestor(const StackTable& stacks, uint32_t ancestor, uint32_t node) {
    for (uint32_t n = node; n != StackTable::kEmpty; n = stacks.parent(n)) {
        if (n == ancestor) {
            return true;
        }
    }
    return ancestor == StackTable::kEmpty;
}

}  // namespace

SpanNesting::SpanNesting(const Trace& trace) {
    const auto& spans = trace.spans;
    m_parent.assign(spans.size(), -1);
    m_self.resize(spans.size());
    std::vector<size_t> order(spans.size());
    for (size_t i = 0; i < spans.size(); ++i) {
        order[i] = i;
        m_self[i] = spans[i].end_ns - spans[i].begin_ns;
    }
    // Per thread, outer spans before the spans they contain.
    std::sort(order.begin(), order.end(), [&spans](size_t a, size_t b) {
        const Span& x = spans[a];
        const Span& y = spans[b];
        if (x.thread != y.thread)
            return x.thread < y.thread;
        if (x.begin_ns != y.begin_ns)
            return x.begin_ns < y.begin_ns;
        if (x.end_ns != y.end_ns)
            return x.end_ns > y.end_ns;
        return x.stack < y.stack;  // a parent's node id is below its children's
    });
    std::vector<size_t> open;
    uint16_t thread = 0;
    for (size_t i : order) {
        const Span& s = spans[i];
        if (open.empty() || s.thread != thread) {
            open.clear();
            thread = s.thread;
        }
        while (!open.empty()) {
            const Span& top = spans[open.back()];
            if (top.end_ns >= s.end_ns && isAncestor(trace.stacks, top.stack, s.stack) &&
                top.stack != s.stack) {
                break;
            }
            open.pop_back();
        }
        const int64_t duration = s.end_ns - s.begin_ns;
        if (open.empty()) {
            m_covered += duration;
        } else {
            m_parent[i] = static_cast<int64_t>(open.back());
            m_self[open.back()] -= duration;
        }
        open.push_back(i);
    }
}

}  // namespace memscope
