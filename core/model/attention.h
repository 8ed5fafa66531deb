#pragma once

#include "model/attention_kind.h"
#include "model/linear.h"
#include "model/rotary_embedding.h"
#include "model/tiny_llama_config.h"

#include <torch/nn/module.h>

namespace memscope {

// Grouped-query self-attention with rotary embeddings, in one of the AttentionKind variants.
class AttentionImpl : public torch::nn::Module {
  public:
    AttentionImpl(const std::string& scope_name, const TinyLlamaConfig& config, AttentionKind kind);

    // x: [B, S, D]; causal_mask: additive [S, S] mask, used by the eager and fused variants.
    torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& causal_mask);

    // Query-block size of the memory-efficient variant.
    static constexpr int64_t kChunkSize = 64;

  private:
    torch::Tensor attend(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                         const torch::Tensor& causal_mask);

    std::string m_scope;
    std::string m_coreScope;
    AttentionKind m_kind;
    int64_t m_heads;
    int64_t m_kvHeads;
    int64_t m_headDim;
    Linear m_q{nullptr}, m_k{nullptr}, m_v{nullptr}, m_qkv{nullptr}, m_o{nullptr};
    RotaryEmbedding m_rope{nullptr};
};

TORCH_MODULE(Attention);

}  // namespace memscope
