#pragma once

#include "model/linear.h"

#include <torch/nn/module.h>

namespace memscope {

// SwiGLU feed-forward: down(silu(gate(x)) * up(x)); gate and up fused into one matmul on request.
class FeedForwardImpl : public torch::nn::Module {
  public:
    FeedForwardImpl(const std::string& scope_name, int64_t hidden, int64_t intermediate,
                    bool fused);

    torch::Tensor forward(const torch::Tensor& x);

  private:
    std::string m_scope;
    int64_t m_intermediate;
    Linear m_gate{nullptr}, m_up{nullptr}, m_gateUp{nullptr}, m_down{nullptr};
};

TORCH_MODULE(FeedForward);

}  // namespace memscope
