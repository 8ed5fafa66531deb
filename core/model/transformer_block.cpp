#include "model/transformer_block.h"

#include "model/module_scope.h"

namespace memscope {

TransformerBlockImpl::TransformerBlockImpl(const std::string& scope_name,
                                           const TinyLlamaConfig& config, AttentionKind kind)
    : m_scope(scope_name) {
    m_attentionNorm = register_module(
        "attention_norm",
        RMSNorm(scope_name + ".attention_norm", config.hidden_dim, config.norm_eps));
    m_attention = register_module("attention", Attention(scope_name + ".attention", config, kind));
    m_ffnNorm = register_module(
        "ffn_norm", RMSNorm(scope_name + ".ffn_norm", config.hidden_dim, config.norm_eps));
    m_feedForward = register_module(
        "feed_forward", FeedForward(scope_name + ".feed_forward", config.hidden_dim,
                                    config.intermediate_dim, kind == AttentionKind::Fused));
}

torch::Tensor TransformerBlockImpl::forward(const torch::Tensor& x,
                                            const torch::Tensor& causal_mask) {
    ModuleScope scope(m_scope);
    auto h = x + m_attention(m_attentionNorm(x), causal_mask);
    return h + m_feedForward(m_ffnNorm(h));
}

}  // namespace memscope
