#include "train/device_capacity.h"

#include "run/run_summary.h"

#include "torch_compat.h"

#include <c10/core/CPUAllocator.h>
#include <c10/util/Exception.h>

#include <atomic>
#include <mutex>

namespace memscope {

namespace {

std::atomic<int64_t> g_limit{0};
std::mutex g_hookMutex;
std::shared_ptr<AllocationHook> g_hook;
std::atomic<AllocationHook*> g_hookRaw{nullptr};

class LimitingCpuAllocator final : public c10::Allocator {
  public:
    explicit LimitingCpuAllocator(c10::Allocator* inner) : m_inner(inner) {}

#if MEMSCOPE_TORCH_AT_LEAST(2, 3)
    c10::DataPtr allocate(size_t nbytes) override {
#else
    c10::DataPtr allocate(size_t nbytes) const override {
#endif
        const int64_t limit = g_limit.load(std::memory_order_relaxed);
        AllocationHook* hook = g_hookRaw.load(std::memory_order_acquire);
        if (limit > 0 && hook != nullptr && nbytes > 0) {
            const int64_t in_use = hook->current();
            if (in_use + static_cast<int64_t>(nbytes) > limit) {
                const c10::Device cpu(c10::DeviceType::CPU);
                c10::reportOutOfMemoryToProfiler(static_cast<int64_t>(nbytes), in_use, limit, cpu);
                TORCH_CHECK_WITH(OutOfMemoryError, false,
                                 "CPU out of memory (Memscope device-capacity limit of ",
                                 formatBytes(limit), "): tried to allocate ",
                                 formatBytes(static_cast<int64_t>(nbytes)), " with ",
                                 formatBytes(in_use), " in use and ",
                                 formatBytes(std::max<int64_t>(0, limit - in_use)), " free");
            }
        }
        return m_inner->allocate(nbytes);
    }

    c10::DeleterFnPtr raw_deleter() const override {
        return m_inner->raw_deleter();
    }
#if MEMSCOPE_TORCH_AT_LEAST(2, 3)
    void copy_data(void* dest, const void* src, std::size_t count) const override {
        m_inner->copy_data(dest, src, count);
    }
#endif

  private:
    c10::Allocator* m_inner;
};

void installOnce() {
    static std::once_flag once;
    std::call_once(once, [] {
        static LimitingCpuAllocator allocator(c10::GetDefaultCPUAllocator());
        c10::SetCPUAllocator(&allocator, /*priority=*/1);
    });
}

}  // namespace

void DeviceCapacity::setLimit(int64_t bytes, std::shared_ptr<AllocationHook> hook) {
    if (bytes > 0) {
        installOnce();
    }
    std::lock_guard<std::mutex> lock(g_hookMutex);
    g_hook = std::move(hook);
    g_hookRaw.store(g_hook.get(), std::memory_order_release);
    g_limit.store(bytes > 0 ? bytes : 0, std::memory_order_relaxed);
}

int64_t DeviceCapacity::limit() {
    return g_limit.load(std::memory_order_relaxed);
}

}  // namespace memscope
