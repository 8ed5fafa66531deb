#pragma once

#include <cstdint>
#include <string>

namespace memscope {

// Shape of a Tiny LLaMA model. Field names follow the workshop script; the CLI spells them
// --hidden-dim, --num-layers, ... and validation errors name the CLI option.
struct TinyLlamaConfig {
    int64_t vocab_size = 1000;
    int64_t hidden_dim = 256;
    int64_t n_layers = 4;
    int64_t n_heads = 8;
    int64_t n_kv_heads = 4;
    int64_t intermediate_dim = 512;
    int64_t max_seq_len = 2048;
    double rope_theta = 10000.0;
    double norm_eps = 1e-6;
    bool tie_embeddings = true;

    int64_t headDim() const { return hidden_dim / n_heads; }
    int64_t kvDim() const { return headDim() * n_kv_heads; }

    // Throws ConfigError naming the offending option when the combination cannot be built.
    void validate() const;
    // Also checks that a sequence of this length fits the model.
    void validateSequence(int64_t seq_len) const;
    // The same weights and activations' shapes as `other`: operator== without the three fields
    // no tensor's size depends on. max_seq_len is only a limit (the rotary embeddings are
    // computed for the sequence a step has), and TrainOptions::withChanges raises it to a run's
    // sequence length, so a sweep's longer sequences would otherwise stop being their preset;
    // rope_theta and norm_eps are numbers inside the computation. A sweep names a point's model
    // by its preset when the two have the same shape (SweepSpec::modelName).
    bool sameShape(const TinyLlamaConfig& other) const;
};

bool operator==(const TinyLlamaConfig& a, const TinyLlamaConfig& b);

}  // namespace memscope
