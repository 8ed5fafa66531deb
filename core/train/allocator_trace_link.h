#pragma once

#include "torch_compat.h"
#include "trace/trace.h"
#include "train/allocation_observer.h"

#include <functional>
#include <optional>

namespace memscope {

// A change to the caching allocator's reserved memory, as a trace event: SegmentAlloc (size > 0)
// for a segment reserved or a range mapped, SegmentFree (size < 0) for one released or unmapped.
struct SegmentChange {
    EventKind kind = EventKind::SegmentAlloc;
    uint64_t addr = 0;
    int64_t size = 0;
    int device = -1;
};

// The allocator's actions that become segment events. Allocations and frees are not taken from
// here: the allocation hook already records them with their stacks (the allocator reports them
// to the profiler slot), and an out-of-memory comes through the hook's reportOutOfMemory.
std::optional<SegmentChange> segmentChangeOf(const compat::AllocatorTraceEvent& event);

// The process's one link to the CUDA caching allocator's trace tracker (LibTorch 2.2 and later,
// CUDA builds). LibTorch keeps a tracker until the process ends and has no way to detach one, so
// Memscope attaches a single forwarding function, once, and runs come and go as its sink.
class AllocatorTraceLink {
  public:
    enum class State {
        Unavailable,  // this LibTorch has no trace tracker (CPU build, or older than 2.2)
        NoDevice,     // a CUDA build, but CUDA has no device here: nothing to attach to
        Attached,
    };
    // Attaches the forwarding function if it is not attached yet (initializing CUDA first: the
    // allocator drops a tracker given before it has its devices). Called by the trainer before a
    // GPU run starts; cheap when already attached.
    static State attach();
    static State state();
    // The observer told of every segment change, on the allocating thread, while the allocator
    // holds its lock (so it must not allocate through LibTorch); nullptr: nobody. One at a time.
    static void setSink(AllocationObserver* sink);
    // Stops telling `sink` if it is still the one told (a later run's sink is left alone).
    static void releaseSink(AllocationObserver* sink);
    static AllocationObserver* sink();

    // For tests: attach through `attacher` (standing in for LibTorch's attach) instead of
    // LibTorch's, with the same once-per-process rule. Returns the state after.
    using Attacher = std::function<void(compat::AllocatorTraceTracker)>;
    static State attachWith(const Attacher& attacher);
    // How many times a forwarding function was handed to an attacher in this process.
    static int attachCount();
};

}  // namespace memscope
