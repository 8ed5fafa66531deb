#pragma once

#include "model/tiny_llama_config.h"

namespace memscope {

// LLaMA-style shapes for a model given only its size in billions of parameters, as
// memprof-training's `transformer 13 32` form does: the nearest published shape (hidden, heads,
// KV heads, FFN width; vocabulary 32000, untied head), with the layer count adjusted so that the
// exact parameter count comes closest to the size asked for.
class ModelShapes {
  public:
    // Throws ConfigError("model size", ...) for sizes outside 0.01 to 2000 billion.
    static TinyLlamaConfig forBillions(double billions, int64_t max_seq_len);
};

}  // namespace memscope
