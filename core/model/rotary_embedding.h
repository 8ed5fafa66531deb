#pragma once

#include <torch/nn/module.h>

#include <string>
#include <utility>

namespace memscope {

// Rotary position embeddings (rotate-half form). cos/sin tables are buffers, not parameters.
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
    torch::Tensor m_cos;
    torch::Tensor m_sin;
};

TORCH_MODULE(RotaryEmbedding);

}  // namespace memscope
