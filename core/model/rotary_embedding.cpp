#include "model/rotary_embedding.h"

#include "model/module_scope.h"

namespace memscope {

RotaryEmbeddingImpl::RotaryEmbeddingImpl(std::string scope_name, int64_t head_dim,
                                         int64_t /*max_seq_len*/, double theta)
    : m_scope(std::move(scope_name)), m_headDim(head_dim), m_theta(theta) {}

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
    const auto f64 = torch::TensorOptions(q.device()).dtype(torch::kFloat64);
    auto inv_freq = 1.0 / torch::pow(m_theta, torch::arange(0, m_headDim, 2, f64) / m_headDim);
    auto freqs = torch::outer(torch::arange(seq, f64), inv_freq);
    auto emb = torch::cat({freqs, freqs}, -1);
    auto cos = emb.cos().to(q.scalar_type());
    auto sin = emb.sin().to(q.scalar_type());
    return {apply(q, cos, sin), apply(k, cos, sin)};
}

}  // namespace memscope
