#include "layout/live_trace_mirror.h"

#include "layout/timeline_layout.h"

#include <atomic>
#include <chrono>

namespace memscope {

LiveTraceMirror::Snapshot LiveTraceMirror::update(const Trace& source) {
    Copy& copy = m_copies[m_next];
    m_next ^= 1;
    // use_count() == 1 is exact here: no one else holds a reference that could make another.
    const bool held =
        (copy.trace && copy.trace.use_count() > 1) || (copy.layout && copy.layout.use_count() > 1);
    if (!copy.trace || held) {
        copy.trace = std::make_shared<Trace>();
        copy.layout.reset();
        copy.builder = LiveTraceBuilder();
    }
    // Whatever the last holder did before it let go (a detail set on the layout) happens before
    // what follows: the count it dropped was released, this acquires it.
    std::atomic_thread_fence(std::memory_order_acquire);
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const bool continued = copy.builder.update(*copy.trace, source);
    const auto traced = Clock::now();
    Snapshot s;
    s.incremental = continued && copy.layout != nullptr;
    if (s.incremental) {
        copy.layout->extend(*copy.trace);
    } else {
        copy.layout = std::make_shared<TimelineLayout>(*copy.trace);
    }
    s.traceMs = std::chrono::duration<double, std::milli>(traced - start).count();
    s.layoutMs = std::chrono::duration<double, std::milli>(Clock::now() - traced).count();
    s.trace = copy.trace;
    s.layout = copy.layout;
    return s;
}

}  // namespace memscope
