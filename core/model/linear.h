#pragma once

#include <torch/nn/module.h>

#include <string>

namespace memscope {

// A bias-free linear layer (LLaMA has no biases) whose forward runs inside a scope named after
// the module, so memory of its matmul is attributed to e.g. "TinyLlama.blocks.0.attention.q_proj".
class LinearImpl : public torch::nn::Module {
  public:
    LinearImpl(std::string scope_name, int64_t in_features, int64_t out_features);

    torch::Tensor forward(const torch::Tensor& input);

    torch::Tensor weight;

  private:
    std::string m_scope;
};

TORCH_MODULE(Linear);

}  // namespace memscope
