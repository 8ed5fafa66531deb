#pragma once

#include "torch_compat.h"
#include "train/allocation_observer.h"

#include <c10/core/Allocator.h>

#include <atomic>
#include <memory>

namespace memscope {

// The one c10::MemoryReportingInfoBase Memscope installs (in DebugInfoKind::PROFILER_STATE) on
// the training thread; autograd carries it to its worker threads. It keeps the running total and
// the peak with atomics, and forwards each event to an optional observer (the recorder).
// It replaces torch.profiler's memory reporting for that thread; the two cannot run together.
// To LibTorch 2.x code that reads the slot as the profiler's state it is a disabled profiler
// (compat::ReportingSlot).
class AllocationHook : public compat::ReportingSlot {
  public:
    explicit AllocationHook(AllocationObserver* observer = nullptr) : m_observer(observer) {}

    void reportMemoryUsage(void* ptr, int64_t alloc_size, compat::AllocatorTotal total_allocated,
                           compat::AllocatorTotal total_reserved, c10::Device device) override;
    void reportOutOfMemory(int64_t alloc_size, compat::AllocatorTotal total_allocated,
                           compat::AllocatorTotal total_reserved, c10::Device device) override;
    bool memoryProfilingEnabled() const override { return true; }

    int64_t current() const { return m_current.load(std::memory_order_relaxed); }
    int64_t peak() const { return m_peak.load(std::memory_order_relaxed); }
    // Starts a new peak window at the current level.
    void resetPeak() { m_peak.store(current(), std::memory_order_relaxed); }
    // Before any event: the bytes already alive when counting begins (a forked child's
    // inheritance from its parent), so the total goes on from them.
    void seed(int64_t bytes) {
        m_current.store(bytes, std::memory_order_relaxed);
        m_peak.store(bytes, std::memory_order_relaxed);
    }
    uint64_t events() const { return m_events.load(std::memory_order_relaxed); }
    AllocationObserver* observer() const { return m_observer; }

  private:
    AllocationObserver* m_observer;
    std::atomic<int64_t> m_current{0};
    std::atomic<int64_t> m_peak{0};
    std::atomic<uint64_t> m_events{0};
};

// Installs a hook on the current thread for the lifetime of the guard.
class AllocationHookGuard {
  public:
    explicit AllocationHookGuard(std::shared_ptr<AllocationHook> hook);

  private:
    c10::DebugInfoGuard m_guard;
};

}  // namespace memscope
