#pragma once

// The few places where LibTorch 1.13 (Debian) and LibTorch 2.x differ in an API Memscope uses.
// Everything version-dependent lives here so the rest of the code reads the same on both.

#include <ATen/ATen.h>
#include <ATen/autocast_mode.h>
#include <c10/core/Allocator.h>
#include <torch/version.h>

#include <tuple>

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

}  // namespace memscope::compat
