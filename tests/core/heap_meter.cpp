#include "heap_meter.h"

#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<int64_t> g_live{0};
std::atomic<int64_t> g_peak{0};
std::atomic<int64_t> g_largest{0};

// nullptr when malloc fails.
void* countedAllocOrNull(size_t n) {
    void* p = std::malloc(n ? n : 1);
    if (!p) {
        return nullptr;
    }
    const auto size = static_cast<int64_t>(malloc_usable_size(p));
    const int64_t live = g_live.fetch_add(size, std::memory_order_relaxed) + size;
    int64_t peak = g_peak.load(std::memory_order_relaxed);
    while (live > peak && !g_peak.compare_exchange_weak(peak, live, std::memory_order_relaxed)) {
    }
    int64_t largest = g_largest.load(std::memory_order_relaxed);
    while (int64_t(n) > largest &&
           !g_largest.compare_exchange_weak(largest, int64_t(n), std::memory_order_relaxed)) {
    }
    return p;
}

void* countedAlloc(size_t n) {
    void* p = countedAllocOrNull(n);
    if (!p) {
        throw std::bad_alloc();
    }
    return p;
}

void countedFree(void* p) {
    if (p) {
        g_live.fetch_sub(static_cast<int64_t>(malloc_usable_size(p)), std::memory_order_relaxed);
        std::free(p);
    }
}
}  // namespace

void* operator new(size_t n) {
    return countedAlloc(n);
}
void* operator new[](size_t n) {
    return countedAlloc(n);
}
// The nothrow forms too (std::stable_sort's temporary buffer uses them): left to the runtime's,
// their blocks would come back through the replaced delete, which AddressSanitizer reports as
// an alloc-dealloc mismatch.
void* operator new(size_t n, const std::nothrow_t&) noexcept {
    return countedAllocOrNull(n);
}
void* operator new[](size_t n, const std::nothrow_t&) noexcept {
    return countedAllocOrNull(n);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
    countedFree(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
    countedFree(p);
}
void operator delete(void* p) noexcept {
    countedFree(p);
}
void operator delete[](void* p) noexcept {
    countedFree(p);
}
void operator delete(void* p, size_t) noexcept {
    countedFree(p);
}
void operator delete[](void* p, size_t) noexcept {
    countedFree(p);
}

namespace memscope::fuzz {

int64_t heapLive() {
    return g_live.load();
}
void resetHeapPeak() {
    g_peak.store(g_live.load());
    g_largest.store(0);
}
int64_t heapPeak() {
    return g_peak.load();
}
int64_t largestAllocation() {
    return g_largest.load();
}

}  // namespace memscope::fuzz
