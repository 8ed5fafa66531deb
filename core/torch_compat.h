#pragma once

// The few places where LibTorch 1.13 (Debian) and LibTorch 2.x differ in an API Memscope uses.
// Everything version-dependent lives here so the rest of the code reads the same on both.

#include <ATen/ATen.h>
#include <ATen/autocast_mode.h>
#include <c10/core/Allocator.h>
#include <torch/version.h>
#if __has_include(<torch/csrc/profiler/orchestration/observer.h>) && TORCH_VERSION_MAJOR >= 2
#include <torch/csrc/profiler/orchestration/observer.h>
#endif

#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <type_traits>

// MEMSCOPE_WITH_CUDA comes from CMake (cmake/MemscopeTorch.cmake) when the LibTorch found was
// built with CUDA; only then are the CUDA headers there to include.
#if defined(MEMSCOPE_WITH_CUDA) && MEMSCOPE_WITH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#include <cuda_runtime_api.h>
#endif

namespace memscope::compat {

#define MEMSCOPE_TORCH_AT_LEAST(major, minor) \
    (TORCH_VERSION_MAJOR > (major) ||         \
     (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))

// c10::MemoryReportingInfoBase::reportMemoryUsage takes the two totals as int64_t in 1.13 and as
// size_t in 2.x. Read the type off the declaration instead of guessing the version it changed in.
template <typename T>
struct ReportMemoryUsageArgs;
template <typename C, typename R, typename A0, typename A1, typename A2, typename A3, typename A4>
struct ReportMemoryUsageArgs<R (C::*)(A0, A1, A2, A3, A4)> {
    using Total = A2;
};
using AllocatorTotal =
    ReportMemoryUsageArgs<decltype(&c10::MemoryReportingInfoBase::reportMemoryUsage)>::Total;

// The thread-local slot Memscope's allocation hook occupies (c10::DebugInfoKind::PROFILER_STATE)
// is the torch profiler's, and LibTorch 2.x reads whatever is in it as a
// torch::profiler::impl::ProfilerStateBase: profilerEnabled() and getProfilerConfig(), which
// autograd.Function.apply asks on every call (torch.compile's compiled regions are such
// Functions). A bare MemoryReportingInfoBase there was read past its end: a garbage config whose
// copy threw std::bad_alloc or std::bad_array_new_length in the program. So the hook is a
// profiler state whose profiler is disabled: those reads see no profiler, as without Memscope.
// 1.13 reads the slot only as a MemoryReportingInfoBase.
#if MEMSCOPE_TORCH_AT_LEAST(2, 0) && __has_include(<torch/csrc/profiler/orchestration/observer.h>)
#define MEMSCOPE_HOOK_IS_PROFILER_STATE 1
class ReportingSlot : public torch::profiler::impl::ProfilerStateBase {
  public:
    ReportingSlot()
        : ProfilerStateBase(torch::profiler::impl::ProfilerConfig(
              torch::profiler::impl::ProfilerState::Disabled)) {}
    torch::profiler::impl::ActiveProfilerType profilerType() override {
        return torch::profiler::impl::ActiveProfilerType::NONE;
    }
};
#else
#define MEMSCOPE_HOOK_IS_PROFILER_STATE 0
using ReportingSlot = c10::MemoryReportingInfoBase;
#endif

inline bool autocastEnabled(c10::DeviceType device) {
#if MEMSCOPE_TORCH_AT_LEAST(2, 4)
    return at::autocast::is_autocast_enabled(device);
#else
    return device == c10::DeviceType::CPU ? at::autocast::is_cpu_enabled()
                                          : at::autocast::is_enabled();
#endif
}

inline c10::ScalarType autocastDtype(c10::DeviceType device) {
#if MEMSCOPE_TORCH_AT_LEAST(2, 4)
    return at::autocast::get_autocast_dtype(device);
#else
    return device == c10::DeviceType::CPU ? at::autocast::get_autocast_cpu_dtype()
                                          : at::autocast::get_autocast_gpu_dtype();
#endif
}

inline void setAutocast(c10::DeviceType device, bool enabled, c10::ScalarType dtype) {
#if MEMSCOPE_TORCH_AT_LEAST(2, 4)
    at::autocast::set_autocast_dtype(device, dtype);
    at::autocast::set_autocast_enabled(device, enabled);
#else
    if (device == c10::DeviceType::CPU) {
        at::autocast::set_autocast_cpu_dtype(dtype);
        at::autocast::set_cpu_enabled(enabled);
    } else {
        at::autocast::set_autocast_gpu_dtype(dtype);
        at::autocast::set_enabled(enabled);
    }
#endif
}

// Causal scaled-dot-product attention through LibTorch's own entry point: the math kernel in
// 1.13, flash / memory-efficient kernels on GPUs in 2.x.
inline at::Tensor scaledDotProductAttention(const at::Tensor& q, const at::Tensor& k,
                                            const at::Tensor& v) {
#if MEMSCOPE_TORCH_AT_LEAST(2, 0)
    return at::scaled_dot_product_attention(q, k, v, {}, 0.0, /*is_causal=*/true);
#else
    return std::get<0>(at::_scaled_dot_product_attention(q, k, v, {}, 0.0, false, true));
#endif
}

// --- GPU memory: the CUDA caching allocator and the device (CUDA builds of LibTorch only)

// The caching allocator's totals for one device, in bytes (the aggregate over its pools).
struct CachingAllocatorStats {
    bool valid = false;  // false: CPU-only LibTorch, or the allocator is not initialized yet
    int64_t allocated_current = 0;
    int64_t allocated_peak = 0;
    int64_t reserved_current = 0;
    int64_t reserved_peak = 0;
};

// What the driver says about one device's memory, in bytes.
struct DeviceMemoryInfo {
    bool valid = false;
    int64_t free_bytes = 0;
    int64_t total_bytes = 0;
};

#if defined(MEMSCOPE_WITH_CUDA) && MEMSCOPE_WITH_CUDA
inline constexpr bool k_with_cuda = true;

// getDeviceStats takes an int in 1.13 and a c10::DeviceIndex in 2.x, and DeviceStats moved to
// c10::CachingDeviceAllocator in 2.5; `auto` and index 0 (StatType::AGGREGATE in every version)
// read it the same way in all of them. The allocator throws when it is not initialized (no CUDA
// tensor made yet) or the index is out of range: that is "no statistics", not an error.
inline CachingAllocatorStats cachingAllocatorStats(int device) {
    CachingAllocatorStats s;
    try {
        namespace alloc = c10::cuda::CUDACachingAllocator;
        const auto stats = alloc::getDeviceStats(static_cast<c10::DeviceIndex>(device));
        s.allocated_current = static_cast<int64_t>(stats.allocated_bytes[0].current);
        s.allocated_peak = static_cast<int64_t>(stats.allocated_bytes[0].peak);
        s.reserved_current = static_cast<int64_t>(stats.reserved_bytes[0].current);
        s.reserved_peak = static_cast<int64_t>(stats.reserved_bytes[0].peak);
        s.valid = true;
    } catch (const c10::Error&) {
    }
    return s;
}

// Starts the peaks of cachingAllocatorStats over from the current values; false when the
// allocator cannot (not initialized).
inline bool resetPeakMemoryStats(int device) {
    try {
        c10::cuda::CUDACachingAllocator::resetPeakStats(static_cast<c10::DeviceIndex>(device));
        return true;
    } catch (const c10::Error&) {
        return false;
    }
}

// cudaMemGetInfo reports the current device, so switch to `device` and back. Errors (no
// driver, bad index) give valid = false; they are cleared so LibTorch does not see them later.
inline DeviceMemoryInfo deviceMemoryInfo(int device) {
    DeviceMemoryInfo info;
    int previous = 0;
    if (cudaGetDevice(&previous) != cudaSuccess || cudaSetDevice(device) != cudaSuccess) {
        (void)cudaGetLastError();
        return info;
    }
    size_t free_bytes = 0;
    size_t total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
        info.valid = true;
        info.free_bytes = static_cast<int64_t>(free_bytes);
        info.total_bytes = static_cast<int64_t>(total_bytes);
    }
    (void)cudaGetLastError();
    (void)cudaSetDevice(previous);
    return info;
}

// The marketing name ("NVIDIA H100 80GB HBM3"); empty when the driver cannot say.
inline std::string deviceName(int device) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
        (void)cudaGetLastError();
        return {};
    }
    return prop.name;
}
namespace detail {
template <typename C, typename = void>
struct HasLazyInitDevice : std::false_type {};
template <typename C>
struct HasLazyInitDevice<
    C, std::void_t<decltype(std::declval<C&>().lazyInitDevice(c10::DeviceType::CUDA))>>
    : std::true_type {};
template <typename C>
void lazyInitCuda(C& context) {
    if constexpr (HasLazyInitDevice<C>::value) {
        context.lazyInitDevice(c10::DeviceType::CUDA);  // 2.6 and later
    } else {
        context.lazyInitCUDA();
    }
}
}  // namespace detail

// Initializes CUDA (and so the caching allocator's per-device state) if there is a device;
// false when there is none.
inline bool initCuda() {
    if (!at::globalContext().hasCUDA()) {
        return false;
    }
    try {
        detail::lazyInitCuda(at::globalContext());
        return true;
    } catch (const c10::Error&) {
        return false;
    }
}
#else
inline constexpr bool k_with_cuda = false;
inline bool initCuda() {
    return false;
}
inline CachingAllocatorStats cachingAllocatorStats(int) {
    return {};
}
inline bool resetPeakMemoryStats(int) {
    return false;
}
inline DeviceMemoryInfo deviceMemoryInfo(int) {
    return {};
}
inline std::string deviceName(int) {
    return {};
}
#endif

// --- The caching allocator's trace tracker (LibTorch 2.2 and later, CUDA builds)
//
// c10::cuda::CUDACachingAllocator::attachAllocatorTraceTracker(std::function<void(const
// TraceEntry&)>) calls the tracker for every action the allocator records (PyTorch PR 112238,
// first released in 2.2). The tracker runs while the allocator holds its per-device lock: it must
// not allocate through LibTorch nor take a lock an allocating thread may hold. Once attached it
// cannot be detached, so attach one forwarding function per process.
struct AllocatorTraceEvent {
    enum class Action {
        Alloc,
        FreeRequested,
        FreeCompleted,
        SegmentAlloc,
        SegmentFree,
        SegmentMap,
        SegmentUnmap,
        Snapshot,
        Oom,  // addr is the device's free bytes at the failure
        Other
    };
    Action action = Action::Other;
    int device = -1;  // -1 where the LibTorch version does not record it
    uint64_t addr = 0;
    uint64_t size = 0;
    uintptr_t stream = 0;
};
using AllocatorTraceTracker = std::function<void(const AllocatorTraceEvent&)>;

#if defined(MEMSCOPE_WITH_CUDA) && MEMSCOPE_WITH_CUDA && MEMSCOPE_TORCH_AT_LEAST(2, 2)
#define MEMSCOPE_HAS_ALLOCATOR_TRACE 1

namespace detail {
// TraceEntry::device_ (int, later c10::DeviceIndex) is read where the version has it.
template <typename T, typename = void>
struct HasDevice : std::false_type {};
template <typename T>
struct HasDevice<T, std::void_t<decltype(std::declval<const T&>().device_)>> : std::true_type {};

inline AllocatorTraceEvent::Action traceAction(
    c10::cuda::CUDACachingAllocator::TraceEntry::Action action) {
    using E = c10::cuda::CUDACachingAllocator::TraceEntry;
    using A = AllocatorTraceEvent::Action;
    switch (action) {
        case E::ALLOC:
            return A::Alloc;
        case E::FREE_REQUESTED:
            return A::FreeRequested;
        case E::FREE_COMPLETED:
            return A::FreeCompleted;
        case E::SEGMENT_ALLOC:
            return A::SegmentAlloc;
        case E::SEGMENT_FREE:
            return A::SegmentFree;
        case E::SEGMENT_MAP:
            return A::SegmentMap;
        case E::SEGMENT_UNMAP:
            return A::SegmentUnmap;
        case E::SNAPSHOT:
            return A::Snapshot;
        case E::OOM:
            return A::Oom;
        default:
            return A::Other;
    }
}
}  // namespace detail

// One of the allocator's TraceEntry records as Memscope reads it: a template, so that the
// device_ branch is discarded where TraceEntry lacks it (and tests build entries against the
// real headers and translate them without a GPU).
template <typename Entry>
AllocatorTraceEvent toAllocatorTraceEvent(const Entry& e) {
    AllocatorTraceEvent event;
    event.action = detail::traceAction(e.action_);
    if constexpr (detail::HasDevice<Entry>::value) {
        event.device = static_cast<int>(e.device_);
    }
    event.addr = static_cast<uint64_t>(e.addr_);
    event.size = static_cast<uint64_t>(e.size_);
    event.stream = reinterpret_cast<uintptr_t>(e.stream_);
    return event;
}

// The allocator hands the tracker to each device's allocator that exists when it is called:
// before CUDA is initialized there is none, and the tracker would be dropped silently. So the
// caller initializes CUDA first (initCuda below).
inline void attachAllocatorTraceTracker(AllocatorTraceTracker tracker) {
    c10::cuda::CUDACachingAllocator::attachAllocatorTraceTracker(
        [tracker = std::move(tracker)](const auto& e) { tracker(toAllocatorTraceEvent(e)); });
}
#else
#define MEMSCOPE_HAS_ALLOCATOR_TRACE 0
#endif

}  // namespace memscope::compat
