// Compiles core/torch_compat.h's LibTorch 2.x / CUDA branches against the stand-ins in stubs/
// (this machine has only Debian's CPU-only LibTorch 1.13). Built, never run: it checks that the
// branches parse and type-check against the upstream declarations' shapes, nothing more.

#include <ATen/ATen.h>

// 1.13 lacks the 2.x entry point the shim calls for scaled-dot-product attention.
namespace at {
Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const c10::optional<Tensor>& attn_mask, double dropout_p,
                                    bool is_causal);
}  // namespace at

#include "torch_compat.h"

static_assert(MEMSCOPE_TORCH_AT_LEAST(2, 2), "the stub torch/version.h must be found first");
static_assert(memscope::compat::k_with_cuda, "MEMSCOPE_WITH_CUDA must be set for this check");
static_assert(MEMSCOPE_HAS_ALLOCATOR_TRACE == 1, "the trace tracker branch must be compiled");

void memscopeTorchCompat2xCheck() {
    using namespace memscope::compat;
    const auto stats = cachingAllocatorStats(0);
    const bool reset = resetPeakMemoryStats(0);
    const auto memory = deviceMemoryInfo(0);
    const auto name = deviceName(0);
    attachAllocatorTraceTracker([](const AllocatorTraceEvent& e) { (void)e; });
    (void)initCuda();
    (void)stats;
    (void)reset;
    (void)memory;
    (void)name;
    const auto q = at::zeros({1, 1, 4, 8});
    (void)scaledDotProductAttention(q, q, q);
}
