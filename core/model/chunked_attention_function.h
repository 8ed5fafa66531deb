#pragma once

#include <torch/autograd.h>

namespace memscope {

// Causal attention computed over blocks of queries, never holding the [S, S] matrix for a whole
// head. Forward keeps only q, k, v, the output and the per-row log-sum-exp; backward recomputes
// each block's probabilities (the flash-attention recurrence, in plain ATen ops). Memory grows
// linearly with the sequence on any device, CPU included. Grouped-query heads are handled by
// viewing the query heads as [Hkv, group] instead of repeating K and V.
class ChunkedAttentionFunction : public torch::autograd::Function<ChunkedAttentionFunction> {
  public:
    // q: [B, H, S, D]; k, v: [B, Hkv, S, D] with H a multiple of Hkv. Returns [B, H, S, D].
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& q,
                                 const torch::Tensor& k, const torch::Tensor& v,
                                 int64_t chunk_size);

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                   torch::autograd::variable_list grad_outputs);
};

}  // namespace memscope
