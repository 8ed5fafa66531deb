#pragma once

#include "run/phase.h"
#include "trace/category.h"
#include "trace/trace.h"

#include <c10/core/Device.h>

#include <cstdint>

namespace memscope {

// Receives every allocation and free the AllocationHook sees, on the thread that made it.
// Implementations must not allocate through the c10 allocator (that would recurse) and should
// not take a global lock per event: the hook is on the hot path of every tensor.
class AllocationObserver {
  public:
    virtual ~AllocationObserver() = default;
    // size > 0: allocation; size < 0: free. allocated is the hook's running total after it;
    // allocator_total / allocator_reserved are what the allocator itself reported.
    virtual void onMemoryEvent(void* ptr, int64_t size, int64_t allocated, int64_t allocator_total,
                               int64_t allocator_reserved, c10::Device device) = 0;
    // The trainer entered a phase of a step (step 0 is initialisation).
    virtual void onPhase(Phase phase, int64_t step) = 0;
    // The trainer names the storage starting at ptr (parameters, gradients, optimizer state,
    // the input batch): exact categories instead of guesses. owner: the path of the module whose
    // parameter the storage belongs to ("TinyLlama.blocks.0.attention.q_proj"), or nullptr.
    virtual void onRole(const void* ptr, Category category, c10::Device device, const char* owner) {
        (void)ptr, (void)category, (void)device, (void)owner;
    }
    // An allocation of `requested` bytes failed (real or emulated out-of-memory).
    virtual void onOutOfMemory(int64_t requested, int64_t allocated, int64_t capacity,
                               c10::Device device) {
        (void)requested, (void)allocated, (void)capacity, (void)device;
    }
    // The caching allocator reserved (kind SegmentAlloc, size > 0) or released (SegmentFree,
    // size < 0) device memory: told through its trace tracker (capture/allocator_trace_link.h),
    // on the allocating thread while the allocator holds its lock.
    virtual void onSegment(EventKind kind, uint64_t addr, int64_t size, c10::Device device) {
        (void)kind, (void)addr, (void)size, (void)device;
    }
    // A c10d collective handed `bytes` of payload to the other ranks; called on the training
    // thread inside the collective's RecordFunction span (train/distributed_context.h).
    virtual void onCollective(int64_t bytes) { (void)bytes; }
    // Called on the training thread when the run starts and ends (install per-thread hooks).
    virtual void onRunThreadStart() {}
    virtual void onRunThreadEnd() {}
};

}  // namespace memscope
