#include "train/allocation_hook.h"

namespace memscope {

void AllocationHook::reportMemoryUsage(void* ptr, int64_t alloc_size,
                                       compat::AllocatorTotal total_allocated,
                                       compat::AllocatorTotal total_reserved, c10::Device device) {
    const int64_t now = m_current.fetch_add(alloc_size, std::memory_order_relaxed) + alloc_size;
    if (alloc_size > 0) {
        int64_t seen = m_peak.load(std::memory_order_relaxed);
        while (now > seen && !m_peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
        }
    }
    m_events.fetch_add(1, std::memory_order_relaxed);
    if (m_observer != nullptr) {
        m_observer->onMemoryEvent(ptr, alloc_size, now, static_cast<int64_t>(total_allocated),
                                  static_cast<int64_t>(total_reserved), device);
    }
}

void AllocationHook::reportOutOfMemory(int64_t alloc_size, compat::AllocatorTotal total_allocated,
                                       compat::AllocatorTotal total_reserved, c10::Device device) {
    if (m_observer != nullptr) {
        m_observer->onOutOfMemory(alloc_size, static_cast<int64_t>(total_allocated),
                                  static_cast<int64_t>(total_reserved), device);
    }
}

AllocationHookGuard::AllocationHookGuard(std::shared_ptr<AllocationHook> hook)
    : m_guard(c10::DebugInfoKind::PROFILER_STATE, std::move(hook)) {}

}  // namespace memscope
