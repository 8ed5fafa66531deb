#pragma once

#include "model/transformer_block.h"

#include <torch/autograd.h>

namespace memscope {

// Activation checkpointing for one transformer block. LibTorch's C++ API has no checkpoint
// utility, so this is the classic reentrant form: forward runs the block without building a
// graph and keeps only its input; backward re-runs the block with grad enabled (under the same
// autocast state as the original forward) and differentiates that local graph.
class BlockCheckpointFunction : public torch::autograd::Function<BlockCheckpointFunction> {
  public:
    static torch::Tensor run(TransformerBlockImpl& block, const torch::Tensor& x,
                             const torch::Tensor& causal_mask);

    // params are the block's parameters, passed so that autograd routes their gradients here.
    // The mask travels as an IValue: it needs no gradient and may be undefined (the sdpa and
    // memory-efficient variants have none), which autograd does not accept as an input.
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x,
                                 at::TensorList params, const c10::IValue& causal_mask,
                                 TransformerBlockImpl* block);

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                   torch::autograd::variable_list grad_outputs);
};

}  // namespace memscope
