#pragma once

#include "model/attention_kind.h"
#include "model/tiny_llama_config.h"
#include "model/train_choices.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace memscope {

struct TrainOptionRow;

// Everything that defines a run. Defaults are the workshop's (tiny_llama_v1.py).
struct TrainOptions {
    std::string preset = "workshop-default";
    TinyLlamaConfig model;
    int64_t batch_size = 8;
    int64_t seq_len = 128;
    int64_t num_steps = 50;
    int64_t warmup_steps = 0;  // run first, not timed
    double learning_rate = 1e-4;
    double weight_decay = 0.01;  // AdamW, as the workshop
    double sgd_momentum = 0.9;
    uint64_t seed = 42;
    int threads = 0;  // 0: all cores
    Dtype dtype = Dtype::Float32;
    AttentionKind attention = AttentionKind::Eager;
    Checkpointing checkpointing = Checkpointing::None;
    ProfileType profile = ProfileType::Training;
    OptimizerKind optimizer = OptimizerKind::AdamW;
    std::string device = "cpu";
    // Emulate a device of this many bytes on a CPU run (0: no limit): see DeviceCapacity.
    int64_t device_memory_limit = 0;

    // Options of a preset: its model, batch and sequence length; everything else default.
    static TrainOptions fromPreset(const std::string& name);  // throws ConfigError
    // Throws ConfigError naming the option.
    void validate() const;
    int resolvedThreads() const;
    bool training() const { return profile == ProfileType::Training; }

    // Every option of TrainOptionTable by its key (model/train_option_table.h).
    nlohmann::json toJson() const;
    // One option's value as set (toJson() gives the threads resolved: all cores as a count).
    nlohmann::json value(std::string_view key) const;
    // The keys `json` has over the defaults, or over `base`. Throws ConfigError naming the
    // option's flag.
    static TrainOptions fromJson(const nlohmann::json& json);
    static TrainOptions fromJson(const nlohmann::json& json, const TrainOptions& base);
    // A user's text for one option (a flag's value, a form field's) as its JSON value: a whole
    // number in the row's range, a number, true/false, a choice by any name its parser accepts
    // (given back by its own name), a size (512MiB). Throws ConfigError naming the flag.
    static nlohmann::json parseValue(const TrainOptionRow& row, const std::string& text);
    // `changes` (by key) over `base`, as a user means them: given heads without KV heads make
    // the KV heads follow where there would be more of them; a given sequence length without
    // the model's longest makes that at least as long. Throws ConfigError.
    static TrainOptions withChanges(const nlohmann::json& changes, const TrainOptions& base);
};

}  // namespace memscope
