#pragma once

#include <torch/nn/module.h>

#include <string>
#include <utility>

namespace memscope {

// Rotary position embeddings (rotate-half form). The cos/sin tables are computed for the
// sequence at hand on every forward instead of kept as module buffers: the model's persistent
// state is then exactly its parameters, which keeps the PARAMETER category exact.
class RotaryEmbeddingImpl : public torch::nn::Module {
  public:
    RotaryEmbeddingImpl(std::string scope_name, int64_t head_dim, int64_t max_seq_len,
                        double theta);

    // q: [B, H, S, D], k: [B, Hkv, S, D]
    std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& q, const torch::Tensor& k);

  private:
    torch::Tensor apply(const torch::Tensor& x, const torch::Tensor& cos,
                        const torch::Tensor& sin) const;

    std::string m_scope;
    int64_t m_headDim;
    double m_theta;
};

TORCH_MODULE(RotaryEmbedding);

}  // namespace memscope
