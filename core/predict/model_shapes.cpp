#include "predict/model_shapes.h"

#include "model/config_error.h"
#include "model/model_cost.h"

#include <algorithm>
#include <cmath>

namespace memscope {

namespace {
struct PublishedShape {
    double billions;
    int64_t hidden, layers, heads, kv_heads, ffn;
};
// Published decoder shapes (GPT-3 small/medium/XL, LLaMA 1/2/3): d_model, layers, heads, KV
// heads, SwiGLU width.
constexpr PublishedShape kShapes[] = {
    {0.125, 768, 12, 12, 12, 2048},    {0.35, 1024, 24, 16, 16, 2816},
    {1.3, 2048, 24, 16, 16, 5504},     {2.7, 2560, 32, 32, 32, 6912},
    {7.0, 4096, 32, 32, 32, 11008},    {13.0, 5120, 40, 40, 40, 13824},
    {33.0, 6656, 60, 52, 52, 17920},   {70.0, 8192, 80, 64, 8, 28672},
    {175.0, 12288, 96, 96, 96, 32768}, {405.0, 16384, 126, 128, 8, 53248},
};
}  // namespace

TinyLlamaConfig ModelShapes::forBillions(double billions, int64_t max_seq_len) {
    if (!(billions >= 0.01 && billions <= 2000)) {
        throw ConfigError("model size", "must be between 0.01 and 2000 (billions of parameters)");
    }
    const PublishedShape* best = &kShapes[0];
    for (const auto& shape : kShapes) {
        if (std::fabs(std::log(shape.billions / billions)) <
            std::fabs(std::log(best->billions / billions))) {
            best = &shape;
        }
    }
    TinyLlamaConfig c;
    c.vocab_size = 32000;
    c.hidden_dim = best->hidden;
    c.n_heads = best->heads;
    c.n_kv_heads = best->kv_heads;
    c.intermediate_dim = best->ffn;
    c.tie_embeddings = false;
    c.max_seq_len = std::max<int64_t>(max_seq_len, 2048);
    c.n_layers = 1;
    const auto one = ModelCost::parameters(c);
    const double fixed = double(one.total() - one.per_layer);
    const double layers = (billions * 1e9 - fixed) / double(one.per_layer);
    c.n_layers = std::max<int64_t>(1, std::llround(layers));
    return c;
}

}  // namespace memscope
