#pragma once

#include "model/attention_kind.h"
#include "model/tiny_llama_config.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace memscope {

enum class Dtype { Float32, BFloat16, Float16 };
enum class Checkpointing { None, PerBlock };
enum class ProfileType { Training, Forward };
enum class OptimizerKind { AdamW, Sgd };

std::string toString(Dtype v);
std::string toString(Checkpointing v);
std::string toString(ProfileType v);
std::string toString(OptimizerKind v);
std::optional<Dtype> parseDtype(const std::string& text);
std::optional<Checkpointing> parseCheckpointing(const std::string& text);
std::optional<ProfileType> parseProfileType(const std::string& text);
std::optional<OptimizerKind> parseOptimizerKind(const std::string& text);
// Each enum's names, as toString spells them, in declaration order: the CLI's choices and the
// GUI's items.
std::vector<std::string> dtypeNames();
std::vector<std::string> checkpointingNames();
std::vector<std::string> profileTypeNames();
std::vector<std::string> optimizerKindNames();

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

    nlohmann::json toJson() const;
    // The keys `json` has over the defaults, or over `base`. Throws ConfigError.
    static TrainOptions fromJson(const nlohmann::json& json);
    static TrainOptions fromJson(const nlohmann::json& json, const TrainOptions& base);
};

}  // namespace memscope
