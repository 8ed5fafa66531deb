#include "program_observer.h"

#include "python_stack.h"

#include <vector>

namespace memscope {

namespace {
thread_local std::vector<Frame> t_frames;
}

void ProgramObserver::onMemoryEvent(void* ptr, int64_t size, int64_t allocated,
                                    int64_t allocator_total, int64_t allocator_reserved,
                                    c10::Device device) {
    if (stopped()) {
        return;
    }
    if (size > 0) {
        // The compare-exchange keeps the highest total; with one allocating thread (the check's
        // case) the allocator's total stored next is the one of that same event.
        int64_t seen = m_peak.load(std::memory_order_relaxed);
        while (allocated > seen &&
               !m_peak.compare_exchange_weak(seen, allocated, std::memory_order_relaxed)) {
        }
        if (allocated > seen) {
            m_allocatorAtPeak.store(allocator_total, std::memory_order_relaxed);
        }
        if (m_pythonFrames > 0) {
            const size_t n = PythonStack::capture(static_cast<size_t>(m_pythonFrames), t_frames);
            if (n > 0) {
                m_recorder.onMemoryEventWithFrames(ptr, size, allocated, allocator_total,
                                                   allocator_reserved, device, t_frames.data(), n);
                return;
            }
        }
    }
    m_recorder.onMemoryEvent(ptr, size, allocated, allocator_total, allocator_reserved, device);
}

void ProgramObserver::onRole(const void* ptr, Category category, c10::Device device,
                             const char* owner) {
    if (!stopped()) {
        m_recorder.onRole(ptr, category, device, owner);
    }
}

void ProgramObserver::onOutOfMemory(int64_t requested, int64_t allocated, int64_t capacity,
                                    c10::Device device) {
    if (!stopped()) {
        m_recorder.onOutOfMemory(requested, allocated, capacity, device);
    }
}

void ProgramObserver::onSegment(EventKind kind, uint64_t addr, int64_t size, c10::Device device) {
    if (!stopped()) {
        m_recorder.onSegment(kind, addr, size, device);
    }
}

ProgramObserver::PeakCheck ProgramObserver::takePeak(int64_t current) {
    PeakCheck check;
    check.recorded = m_peak.exchange(current, std::memory_order_relaxed);
    check.allocator = m_allocatorAtPeak.load(std::memory_order_relaxed);
    return check;
}

}  // namespace memscope
