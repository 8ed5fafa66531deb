#pragma once

#include "model/tiny_llama_config.h"

#include <string>
#include <vector>

namespace memscope {

// A named model shape with the batch and sequence length its source document runs it at.
struct Preset {
    std::string name;
    std::string source;  // where the numbers come from
    TinyLlamaConfig model;
    int64_t batch_size = 8;
    int64_t seq_len = 128;
    bool cs336 = false;  // one of CS336 assignment 2's model sizes (small ... 2.7B)

    static const std::vector<Preset>& all();
    // nullptr when no preset has that name.
    static const Preset* find(const std::string& name);
    static std::vector<std::string> names();
    // The CS336 sizes' names, in order: what memscope-cli's --model-size takes and the report
    // counts as the assignment's.
    static std::vector<std::string> cs336Names();
};

}  // namespace memscope
