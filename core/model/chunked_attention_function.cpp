#include "model/chunked_attention_function.h"

#include <cmath>
#include <limits>

namespace memscope {

namespace {

// Additive-mask equivalent for the rows [begin, begin + rows) against keys [0, keys): key j is
// hidden from query i when j > i.
torch::Tensor causalHidden(int64_t begin, int64_t rows, int64_t keys, const torch::Device& device) {
    auto q_pos =
        torch::arange(begin, begin + rows, torch::TensorOptions(device).dtype(torch::kLong));
    auto k_pos = torch::arange(0, keys, torch::TensorOptions(device).dtype(torch::kLong));
    return k_pos.unsqueeze(0) > q_pos.unsqueeze(1);  // [rows, keys]
}

// Scores of one query block in fp32: [B, Hkv, G, rows, keys].
torch::Tensor blockScores(const torch::Tensor& q_block, const torch::Tensor& k_prefix, double scale,
                          int64_t begin) {
    auto scores = torch::matmul(q_block, k_prefix.transpose(-2, -1).unsqueeze(2));
    scores = scores.to(torch::kFloat32).mul_(scale);
    auto hidden = causalHidden(begin, q_block.size(3), k_prefix.size(2), q_block.device());
    return scores.masked_fill_(hidden, -std::numeric_limits<float>::infinity());
}

}  // namespace

torch::Tensor ChunkedAttentionFunction::forward(torch::autograd::AutogradContext* ctx,
                                                const torch::Tensor& q, const torch::Tensor& k,
                                                const torch::Tensor& v, int64_t chunk_size) {
    TORCH_CHECK(q.dim() == 4 && k.dim() == 4 && v.dim() == 4, "attention expects [B, H, S, D]");
    const int64_t B = q.size(0), H = q.size(1), S = q.size(2), D = q.size(3);
    const int64_t Hkv = k.size(1);
    TORCH_CHECK(H % Hkv == 0, "query heads must be a multiple of KV heads");
    const int64_t G = H / Hkv;
    const double scale = 1.0 / std::sqrt(static_cast<double>(D));
    chunk_size = std::max<int64_t>(1, std::min(chunk_size, S));

    auto qg = q.view({B, Hkv, G, S, D});
    auto out = torch::empty({B, Hkv, G, S, D}, q.options());
    auto lse = torch::empty({B, Hkv, G, S}, q.options().dtype(torch::kFloat32));
    for (int64_t begin = 0; begin < S; begin += chunk_size) {
        const int64_t rows = std::min(chunk_size, S - begin);
        const int64_t keys = begin + rows;  // causal: later keys are all hidden
        auto q_block = qg.narrow(3, begin, rows);
        auto k_prefix = k.narrow(2, 0, keys);
        auto v_prefix = v.narrow(2, 0, keys);
        auto scores = blockScores(q_block, k_prefix, scale, begin);
        auto row_lse = torch::logsumexp(scores, -1, /*keepdim=*/true);
        auto probs = scores.sub_(row_lse).exp_();
        out.narrow(3, begin, rows)
            .copy_(torch::matmul(probs.to(v.scalar_type()), v_prefix.unsqueeze(2)));
        lse.narrow(3, begin, rows).copy_(row_lse.squeeze(-1));
    }
    ctx->save_for_backward({q, k, v, out, lse});
    ctx->saved_data["chunk_size"] = chunk_size;
    return out.view({B, H, S, D});
}

torch::autograd::variable_list ChunkedAttentionFunction::backward(
    torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grad_outputs) {
    auto saved = ctx->get_saved_variables();
    const auto& q = saved[0];
    const auto& k = saved[1];
    const auto& v = saved[2];
    const auto& out = saved[3];
    const auto& lse = saved[4];
    const int64_t chunk_size = ctx->saved_data["chunk_size"].toInt();
    const int64_t B = q.size(0), H = q.size(1), S = q.size(2), D = q.size(3);
    const int64_t Hkv = k.size(1);
    const int64_t G = H / Hkv;
    const double scale = 1.0 / std::sqrt(static_cast<double>(D));

    auto qg = q.view({B, Hkv, G, S, D});
    auto grad_out = grad_outputs[0].contiguous().view({B, Hkv, G, S, D});
    // delta_i = sum_d dO_id * O_id, the softmax-backward correction per row.
    auto delta = (grad_out.to(torch::kFloat32) * out.to(torch::kFloat32)).sum(-1);

    auto dq = torch::zeros({B, Hkv, G, S, D}, q.options().dtype(torch::kFloat32));
    auto dk = torch::zeros({B, Hkv, S, D}, k.options().dtype(torch::kFloat32));
    auto dv = torch::zeros({B, Hkv, S, D}, v.options().dtype(torch::kFloat32));
    for (int64_t begin = 0; begin < S; begin += chunk_size) {
        const int64_t rows = std::min(chunk_size, S - begin);
        const int64_t keys = begin + rows;
        auto q_block = qg.narrow(3, begin, rows);
        auto k_prefix = k.narrow(2, 0, keys);
        auto v_prefix = v.narrow(2, 0, keys);
        auto go_block = grad_out.narrow(3, begin, rows).to(torch::kFloat32);
        auto probs = blockScores(q_block, k_prefix, scale, begin)
                         .sub_(lse.narrow(3, begin, rows).unsqueeze(-1))
                         .exp_();  // [B, Hkv, G, rows, keys]
        dv.narrow(2, 0, keys).add_(torch::matmul(probs.transpose(-2, -1), go_block).sum(2));
        auto dprobs =
            torch::matmul(go_block, v_prefix.to(torch::kFloat32).transpose(-2, -1).unsqueeze(2));
        auto dscores = probs.mul_(dprobs.sub_(delta.narrow(3, begin, rows).unsqueeze(-1)));
        dq.narrow(3, begin, rows)
            .copy_(torch::matmul(dscores, k_prefix.to(torch::kFloat32).unsqueeze(2)).mul_(scale));
        dk.narrow(2, 0, keys)
            .add_(torch::matmul(dscores.transpose(-2, -1), q_block.to(torch::kFloat32))
                      .sum(2)
                      .mul_(scale));
    }
    return {dq.view({B, H, S, D}).to(q.scalar_type()), dk.to(k.scalar_type()),
            dv.to(v.scalar_type()), torch::Tensor()};
}

}  // namespace memscope
