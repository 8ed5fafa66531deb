#pragma once
// Stand-in for the declarations of LibTorch 2.x's c10/cuda/CUDACachingAllocator.h that
// core/torch_compat.h uses. MEMSCOPE_STUB_NO_TRACE_DEVICE drops TraceEntry::device_ (as a
// version without it), to check that the shim still compiles.
#include <c10/core/Device.h>
#include <c10/util/Exception.h>
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>

namespace c10::cuda::CUDACachingAllocator {

struct Stat {
    int64_t current = 0;
    int64_t peak = 0;
    int64_t allocated = 0;
    int64_t freed = 0;
};
enum struct StatType : uint64_t { AGGREGATE = 0, SMALL_POOL = 1, LARGE_POOL = 2, NUM_TYPES = 3 };
using StatArray = std::array<Stat, static_cast<size_t>(StatType::NUM_TYPES)>;
struct DeviceStats {
    StatArray allocation;
    StatArray segment;
    StatArray active;
    StatArray inactive_split;
    StatArray allocated_bytes;
    StatArray reserved_bytes;
    StatArray active_bytes;
    StatArray inactive_split_bytes;
    StatArray requested_bytes;
};

struct TraceEntry {
    enum Action {
        ALLOC,
        FREE_REQUESTED,
        FREE_COMPLETED,
        SEGMENT_ALLOC,
        SEGMENT_FREE,
        SEGMENT_MAP,
        SEGMENT_UNMAP,
        SNAPSHOT,
        OOM
    };
    Action action_;
#ifndef MEMSCOPE_STUB_NO_TRACE_DEVICE
    c10::DeviceIndex device_;
#endif
    size_t addr_;
    cudaStream_t stream_{};
    size_t size_;
};
using AllocatorTraceTracker = std::function<void(const TraceEntry&)>;

DeviceStats getDeviceStats(c10::DeviceIndex device);
void resetPeakStats(c10::DeviceIndex device);
void attachAllocatorTraceTracker(AllocatorTraceTracker tracker);

}  // namespace c10::cuda::CUDACachingAllocator
