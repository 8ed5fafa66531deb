#pragma once

#include <torch/nn/module.h>

#include <string>

namespace memscope {

// RMSNorm as in LLaMA: normalise in fp32, scale by a learned weight, return the input dtype.
class RMSNormImpl : public torch::nn::Module {
  public:
    RMSNormImpl(std::string scope_name, int64_t dim, double eps);

    torch::Tensor forward(const torch::Tensor& input);

    torch::Tensor weight;

  private:
    std::string m_scope;
    double m_eps;
};

TORCH_MODULE(RMSNorm);

}  // namespace memscope
