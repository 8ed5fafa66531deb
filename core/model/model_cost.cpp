#include "model/model_cost.h"

namespace memscope {

ParameterCount ModelCost::parameters(const TinyLlamaConfig& c) {
    ParameterCount p;
    const int64_t d = c.hidden_dim;
    p.embedding = c.vocab_size * d;
    const int64_t norms = 2 * d;
    const int64_t attention = d * d + 2 * d * c.kvDim() + d * d;
    const int64_t ffn = 3 * d * c.intermediate_dim;
    p.per_layer = norms + attention + ffn;
    p.layers = c.n_layers * p.per_layer;
    p.final_norm = d;
    p.lm_head = c.tie_embeddings ? 0 : c.vocab_size * d;
    return p;
}

double ModelCost::layerForwardFlops(const TinyLlamaConfig& c, int64_t batch, int64_t seq) {
    const double tokens = double(batch) * double(seq);
    const double d = double(c.hidden_dim);
    const double projections = 2.0 * tokens * (d * d + 2.0 * d * double(c.kvDim()) + d * d);
    const double ffn = 2.0 * tokens * 3.0 * d * double(c.intermediate_dim);
    // scores = Q K^T and out = P V, each 2 * B * H * S * S * head_dim.
    const double attention = 2.0 * 2.0 * double(batch) * double(c.n_heads) * double(seq) *
                             double(seq) * double(c.headDim());
    return projections + ffn + attention;
}

double ModelCost::headForwardFlops(const TinyLlamaConfig& c, int64_t batch, int64_t seq) {
    return 2.0 * double(batch) * double(seq) * double(c.hidden_dim) * double(c.vocab_size);
}

FlopCount ModelCost::stepFlops(const TinyLlamaConfig& c, int64_t batch, int64_t seq, bool training,
                               bool checkpointing, AttentionKind attention) {
    FlopCount f;
    const double layer = layerForwardFlops(c, batch, seq);
    f.forward = double(c.n_layers) * layer + headForwardFlops(c, batch, seq);
    if (!training) {
        return f;
    }
    f.backward = 2.0 * f.forward;
    if (checkpointing) {
        f.recompute += double(c.n_layers) * layer;
    }
    if (attention == AttentionKind::MemoryEfficient) {
        // backward recomputes the scores Q K^T once per layer
        f.recompute += double(c.n_layers) * 2.0 * double(batch) * double(c.n_heads) * double(seq) *
                       double(seq) * double(c.headDim());
    }
    return f;
}

}  // namespace memscope
