#pragma once

#include <torch/types.h>

#include <cstddef>

namespace memscope {

// Told by TinyLlama around each transformer block's forward, so a parallel engine can gather a
// block's sharded parameters before it runs and free them afterwards (ZeRO-3), and hook the
// block's input and output tensors for its backward.
class BlockObserver {
  public:
    virtual ~BlockObserver() = default;
    virtual void beforeBlock(size_t index, const torch::Tensor& input) = 0;
    virtual void afterBlock(size_t index, const torch::Tensor& output) = 0;
};

}  // namespace memscope
