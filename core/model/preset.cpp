#include "model/preset.h"

#include <algorithm>

namespace memscope {

namespace {

// seeds/002 section 6.2: hidden/layers/seq/batch as listed; 8 heads, 4 KV heads,
// intermediate = 4 x hidden, vocab 1000, tied embeddings (as the study script derives them).
Preset study(const std::string& size, int64_t hidden, int64_t layers, int64_t seq, int64_t batch) {
    Preset p;
    p.name = "study-" + size;
    p.source = "workshop performance study (" + size + ")";
    p.model.hidden_dim = hidden;
    p.model.n_layers = layers;
    p.model.n_heads = 8;
    p.model.n_kv_heads = 4;
    p.model.intermediate_dim = 4 * hidden;
    p.model.vocab_size = 1000;
    p.model.tie_embeddings = true;
    p.model.max_seq_len = std::max<int64_t>(2048, seq);
    p.batch_size = batch;
    p.seq_len = seq;
    return p;
}

// CS336 assignment 2, Table 1: vocab 10000, no GQA, untied LM head, batch 4, context 512.
Preset cs336(const std::string& size, int64_t d_model, int64_t d_ff, int64_t layers,
             int64_t heads) {
    Preset p;
    p.name = size;
    p.source = "CS336 assignment 2 (" + size + ")";
    p.model.hidden_dim = d_model;
    p.model.intermediate_dim = d_ff;
    p.model.n_layers = layers;
    p.model.n_heads = heads;
    p.model.n_kv_heads = heads;
    p.model.vocab_size = 10000;
    p.model.tie_embeddings = false;
    p.model.max_seq_len = 2048;
    p.batch_size = 4;
    p.seq_len = 512;
    p.cs336 = true;
    return p;
}

std::vector<Preset> makePresets() {
    std::vector<Preset> presets;
    Preset workshop;
    workshop.name = "workshop-default";
    workshop.source = "Tiny LLaMA profiling workshop (tiny_llama_v1.py defaults)";
    workshop.batch_size = 8;
    workshop.seq_len = 128;
    presets.push_back(workshop);
    presets.push_back(study("tiny", 256, 4, 128, 8));
    presets.push_back(study("small", 512, 8, 256, 8));
    presets.push_back(study("medium", 1024, 12, 512, 16));
    presets.push_back(study("large", 2048, 16, 1024, 8));
    presets.push_back(study("very_large", 4096, 24, 2048, 4));
    presets.push_back(cs336("small", 768, 3072, 12, 12));
    presets.push_back(cs336("medium", 1024, 4096, 24, 16));
    presets.push_back(cs336("large", 1280, 5120, 36, 20));
    presets.push_back(cs336("xl", 1600, 6400, 48, 25));
    presets.push_back(cs336("2.7B", 2560, 10240, 32, 32));
    return presets;
}

}  // namespace

const std::vector<Preset>& Preset::all() {
    static const std::vector<Preset> presets = makePresets();
    return presets;
}

const Preset* Preset::find(const std::string& name) {
    for (const auto& p : all()) {
        if (p.name == name) {
            return &p;
        }
    }
    return nullptr;
}

std::vector<std::string> Preset::names() {
    std::vector<std::string> out;
    for (const auto& p : all()) {
        out.push_back(p.name);
    }
    return out;
}

std::vector<std::string> Preset::cs336Names() {
    std::vector<std::string> out;
    for (const auto& p : all()) {
        if (p.cs336) {
            out.push_back(p.name);
        }
    }
    return out;
}

}  // namespace memscope
