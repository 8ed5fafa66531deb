#include "train/allocator_trace_link.h"

#include <atomic>
#include <mutex>

namespace memscope {

namespace {

std::atomic<AllocationObserver*> g_traceSink{nullptr};
std::mutex g_traceAttachMutex;
AllocatorTraceLink::State g_traceState = AllocatorTraceLink::State::Unavailable;
bool g_traceAttached = false;
int g_traceAttachCount = 0;

// Runs inside the allocator, under its lock, on the thread that allocated.
void forwardToSink(const compat::AllocatorTraceEvent& event) {
    AllocationObserver* sink = g_traceSink.load(std::memory_order_acquire);
    if (sink == nullptr) {
        return;
    }
    if (const auto change = segmentChangeOf(event)) {
        const c10::Device device =
            change->device >= 0
                ? c10::Device(c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(change->device))
                : c10::Device(c10::DeviceType::CUDA);
        sink->onSegment(change->kind, change->addr, change->size, device);
    }
}

}  // namespace

std::optional<SegmentChange> segmentChangeOf(const compat::AllocatorTraceEvent& event) {
    using A = compat::AllocatorTraceEvent::Action;
    SegmentChange change;
    change.addr = event.addr;
    change.device = event.device;
    // A segment larger than 2^63 bytes is no segment: refuse it rather than wrap the sign.
    if (event.size > uint64_t(INT64_MAX)) {
        return std::nullopt;
    }
    const auto size = static_cast<int64_t>(event.size);
    switch (event.action) {
        case A::SegmentAlloc:
        case A::SegmentMap:
            change.kind = EventKind::SegmentAlloc;
            change.size = size;
            return change;
        case A::SegmentFree:
        case A::SegmentUnmap:
            change.kind = EventKind::SegmentFree;
            change.size = -size;
            return change;
        case A::Alloc:
        case A::FreeRequested:
        case A::FreeCompleted:
        case A::Snapshot:
        case A::Oom:
        case A::Other:
            return std::nullopt;
    }
    return std::nullopt;
}

AllocatorTraceLink::State AllocatorTraceLink::attachWith(const Attacher& attacher) {
    std::lock_guard<std::mutex> lock(g_traceAttachMutex);
    if (!g_traceAttached) {
        attacher(&forwardToSink);
        g_traceAttached = true;
        ++g_traceAttachCount;
        g_traceState = State::Attached;
    }
    return g_traceState;
}

AllocatorTraceLink::State AllocatorTraceLink::attach() {
    {
        std::lock_guard<std::mutex> lock(g_traceAttachMutex);
        if (g_traceAttached) {
            return g_traceState;
        }
    }
#if MEMSCOPE_HAS_ALLOCATOR_TRACE
    {
        std::lock_guard<std::mutex> lock(g_traceAttachMutex);
        if (!compat::initCuda()) {
            g_traceState = State::NoDevice;
            return g_traceState;
        }
    }
    return attachWith([](compat::AllocatorTraceTracker tracker) {
        compat::attachAllocatorTraceTracker(std::move(tracker));
    });
#else
    return State::Unavailable;
#endif
}

AllocatorTraceLink::State AllocatorTraceLink::state() {
    std::lock_guard<std::mutex> lock(g_traceAttachMutex);
    return g_traceState;
}

void AllocatorTraceLink::setSink(AllocationObserver* sink) {
    g_traceSink.store(sink, std::memory_order_release);
}

void AllocatorTraceLink::releaseSink(AllocationObserver* sink) {
    g_traceSink.compare_exchange_strong(sink, nullptr, std::memory_order_acq_rel);
}

AllocationObserver* AllocatorTraceLink::sink() {
    return g_traceSink.load(std::memory_order_acquire);
}

int AllocatorTraceLink::attachCount() {
    std::lock_guard<std::mutex> lock(g_traceAttachMutex);
    return g_traceAttachCount;
}

}  // namespace memscope
