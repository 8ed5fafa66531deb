#include "model/rotary_embedding.h"

#include "model/module_scope.h"

namespace memscope {

RotaryEmbeddingImpl::RotaryEmbeddingImpl(std::string scope_name, int64_t head_dim,
                                         int64_t max_seq_len, double theta)
    : m_scope(std::move(scope_name)) {
    auto inv_freq =
        1.0 / torch::pow(theta, torch::arange(0, head_dim, 2, torch::kFloat64) / head_dim);
    auto t = torch::arange(max_seq_len, torch::kFloat64);
    auto freqs = torch::outer(t, inv_freq);
    auto emb = torch::cat({freqs, freqs}, -1).to(torch::kFloat32);
    m_cos = register_buffer("cos_cached", emb.cos());
    m_sin = register_buffer("sin_cached", emb.sin());
}

torch::Tensor RotaryEmbeddingImpl::apply(const torch::Tensor& x, const torch::Tensor& cos,
                                         const torch::Tensor& sin) const {
    const auto half = x.size(-1) / 2;
    auto x1 = x.narrow(-1, 0, half);
    auto x2 = x.narrow(-1, half, half);
    auto rotated = torch::cat({-x2, x1}, -1);
    return (x * cos + rotated * sin).to(x.scalar_type());
}

std::pair<torch::Tensor, torch::Tensor> RotaryEmbeddingImpl::forward(const torch::Tensor& q,
                                                                     const torch::Tensor& k) {
    ModuleScope scope(m_scope);
    const auto seq = q.size(2);
    auto cos = m_cos.narrow(0, 0, seq).to(q.scalar_type());
    auto sin = m_sin.narrow(0, 0, seq).to(q.scalar_type());
    return {apply(q, cos, sin), apply(k, cos, sin)};
}

}  // namespace memscope
