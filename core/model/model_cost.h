#pragma once

#include "model/attention_kind.h"
#include "model/tiny_llama_config.h"

#include <cstdint>

namespace memscope {

// Exact parameter and FLOP counts from the config alone (no tensors are built).
//
// FLOP convention, stated once here and in the README:
// - a matmul of [m, k] x [k, n] costs 2*m*n*k;
// - backward costs twice forward (grad wrt input and grad wrt weight);
// - causal attention is counted in full (S*S scores, no halving for the mask);
// - element-wise ops, norms, softmax and the optimizer are not counted (they are < 1% here).
// "model" FLOPs are what MFU uses (3x forward for training); "executed" FLOPs add the
// recomputation that checkpointing and memory-efficient attention perform.
struct FlopCount {
    double forward = 0;
    double backward = 0;
    double recompute = 0;
    double model() const { return forward + backward; }
    double executed() const { return forward + backward + recompute; }
};

struct ParameterCount {
    int64_t embedding = 0;
    int64_t per_layer = 0;
    int64_t layers = 0;  // all blocks
    int64_t final_norm = 0;
    int64_t lm_head = 0;  // 0 when tied
    int64_t total() const { return embedding + layers + final_norm + lm_head; }
};

class ModelCost {
  public:
    static ParameterCount parameters(const TinyLlamaConfig& config);
    // Forward FLOPs of one layer's attention and feed-forward for one batch.
    static double layerForwardFlops(const TinyLlamaConfig& config, int64_t batch, int64_t seq);
    static double headForwardFlops(const TinyLlamaConfig& config, int64_t batch, int64_t seq);
    static FlopCount stepFlops(const TinyLlamaConfig& config, int64_t batch, int64_t seq,
                               bool training, bool checkpointing, AttentionKind attention);
};

}  // namespace memscope
