#include "model/attention.h"

#include "model/attention_chunk.h"
#include "model/chunked_attention_function.h"
#include "model/module_scope.h"
#include "torch_compat.h"

#include <cmath>

namespace memscope {

static_assert(AttentionImpl::kChunkSize == kAttentionChunkSize,
              "the memory model (model/attention_chunk.h) predicts the chunks computed here");

AttentionImpl::AttentionImpl(const std::string& scope_name, const TinyLlamaConfig& config,
                             AttentionKind kind)
    : m_scope(scope_name),
      m_coreScope(scope_name + ".core"),
      m_kind(kind),
      m_heads(config.n_heads),
      m_kvHeads(config.n_kv_heads),
      m_headDim(config.headDim()) {
    const auto d = config.hidden_dim;
    const auto kv = config.kvDim();
    if (kind == AttentionKind::Fused) {
        m_qkv = register_module("qkv_proj", Linear(scope_name + ".qkv_proj", d, d + 2 * kv));
    } else {
        m_q = register_module("q_proj", Linear(scope_name + ".q_proj", d, d));
        m_k = register_module("k_proj", Linear(scope_name + ".k_proj", d, kv));
        m_v = register_module("v_proj", Linear(scope_name + ".v_proj", d, kv));
    }
    m_o = register_module("o_proj", Linear(scope_name + ".o_proj", d, d));
    m_rope = register_module("rotary_emb", RotaryEmbedding(scope_name + ".rotary_emb", m_headDim,
                                                           config.max_seq_len, config.rope_theta));
}

torch::Tensor AttentionImpl::forward(const torch::Tensor& x, const torch::Tensor& causal_mask) {
    ModuleScope scope(m_scope);
    const auto B = x.size(0), S = x.size(1);
    const auto kv = m_kvHeads * m_headDim;
    torch::Tensor q, k, v;
    if (m_kind == AttentionKind::Fused) {
        auto qkv = m_qkv(x);
        auto parts = qkv.split_with_sizes({m_heads * m_headDim, kv, kv}, -1);
        q = parts[0], k = parts[1], v = parts[2];
    } else {
        q = m_q(x), k = m_k(x), v = m_v(x);
    }
    q = q.view({B, S, m_heads, m_headDim}).transpose(1, 2);
    k = k.view({B, S, m_kvHeads, m_headDim}).transpose(1, 2);
    v = v.view({B, S, m_kvHeads, m_headDim}).transpose(1, 2);
    std::tie(q, k) = m_rope(q, k);
    auto out = attend(q, k, v, causal_mask);  // [B, H, S, hd]
    out = out.transpose(1, 2).contiguous().view({B, S, m_heads * m_headDim});
    return m_o(out);
}

torch::Tensor AttentionImpl::attend(const torch::Tensor& q, const torch::Tensor& k,
                                    const torch::Tensor& v, const torch::Tensor& causal_mask) {
    ModuleScope scope(m_coreScope);
    const auto n_rep = m_heads / m_kvHeads;
    if (m_kind == AttentionKind::MemoryEfficient) {
        return ChunkedAttentionFunction::apply(q, k, v, kChunkSize);
    }
    auto k_full = n_rep > 1 ? k.repeat_interleave(n_rep, 1) : k;
    auto v_full = n_rep > 1 ? v.repeat_interleave(n_rep, 1) : v;
    if (m_kind == AttentionKind::Sdpa) {
        return compat::scaledDotProductAttention(q, k_full, v_full);
    }
    // The workshop baseline's op sequence, kept op for op so that memory matches its script.
    auto scores = torch::matmul(q, k_full.transpose(-2, -1)) / std::sqrt(double(m_headDim));
    scores = scores + causal_mask;
    auto probs = torch::softmax(scores, -1);
    return torch::matmul(probs, v_full);
}

}  // namespace memscope
