#pragma once

#include "model/attention.h"
#include "model/feed_forward.h"
#include "model/rms_norm.h"

#include <torch/nn/module.h>

namespace memscope {

// Pre-norm residual block: h = x + attention(norm(x)); out = h + feed_forward(norm(h)).
class TransformerBlockImpl : public torch::nn::Module {
  public:
    TransformerBlockImpl(const std::string& scope_name, const TinyLlamaConfig& config,
                         AttentionKind kind);

    torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& causal_mask);

    const std::string& scopeName() const { return m_scope; }

  private:
    std::string m_scope;
    RMSNorm m_attentionNorm{nullptr};
    Attention m_attention{nullptr};
    RMSNorm m_ffnNorm{nullptr};
    FeedForward m_feedForward{nullptr};
};

TORCH_MODULE(TransformerBlock);

}  // namespace memscope
