#include "run/train_options.h"

#include "model/config_error.h"
#include "model/preset.h"
#include "run/size_limits.h"

#include <nlohmann/json.hpp>

#include <thread>

namespace memscope {

namespace {

template <typename Enum, typename Names>
std::optional<Enum> parseByName(const std::string& text, const Names& names) {
    for (const auto& [value, name] : names) {
        if (text == name) {
            return value;
        }
    }
    return std::nullopt;
}

const std::vector<std::pair<Dtype, std::string>> kDtypes{
    {Dtype::Float32, "fp32"}, {Dtype::BFloat16, "bf16"}, {Dtype::Float16, "fp16"}};
const std::vector<std::pair<Checkpointing, std::string>> kCheckpointing{
    {Checkpointing::None, "none"}, {Checkpointing::PerBlock, "per-block"}};
const std::vector<std::pair<ProfileType, std::string>> kProfiles{
    {ProfileType::Training, "training"}, {ProfileType::Forward, "forward"}};
const std::vector<std::pair<OptimizerKind, std::string>> kOptimizers{
    {OptimizerKind::AdamW, "adamw"}, {OptimizerKind::Sgd, "sgd"}};

template <typename Enum>
std::string nameOf(Enum v, const std::vector<std::pair<Enum, std::string>>& names) {
    for (const auto& [value, name] : names) {
        if (value == v) {
            return name;
        }
    }
    return names.front().second;
}

template <typename Enum>
std::vector<std::string> namesOf(const std::vector<std::pair<Enum, std::string>>& names) {
    std::vector<std::string> out;
    for (const auto& entry : names) {
        out.push_back(entry.second);
    }
    return out;
}

}  // namespace

std::vector<std::string> dtypeNames() {
    return namesOf(kDtypes);
}
std::vector<std::string> checkpointingNames() {
    return namesOf(kCheckpointing);
}
std::vector<std::string> profileTypeNames() {
    return namesOf(kProfiles);
}
std::vector<std::string> optimizerKindNames() {
    return namesOf(kOptimizers);
}

std::string toString(Dtype v) {
    return nameOf(v, kDtypes);
}
std::string toString(Checkpointing v) {
    return nameOf(v, kCheckpointing);
}
std::string toString(ProfileType v) {
    return nameOf(v, kProfiles);
}
std::string toString(OptimizerKind v) {
    return nameOf(v, kOptimizers);
}

std::optional<Dtype> parseDtype(const std::string& text) {
    if (text == "float32" || text == "fp32")
        return Dtype::Float32;
    if (text == "bfloat16" || text == "bf16")
        return Dtype::BFloat16;
    if (text == "float16" || text == "fp16" || text == "half")
        return Dtype::Float16;
    return std::nullopt;
}
std::optional<Checkpointing> parseCheckpointing(const std::string& text) {
    if (text == "block" || text == "per_block")
        return Checkpointing::PerBlock;
    return parseByName<Checkpointing>(text, kCheckpointing);
}
std::optional<ProfileType> parseProfileType(const std::string& text) {
    // "forward" is inference (torch.no_grad), not a forward with autograd on: accepted by that
    // name too.
    if (text == "inference" || text == "no_grad" || text == "no-grad")
        return ProfileType::Forward;
    return parseByName<ProfileType>(text, kProfiles);
}
std::optional<OptimizerKind> parseOptimizerKind(const std::string& text) {
    return parseByName<OptimizerKind>(text, kOptimizers);
}

TrainOptions TrainOptions::fromPreset(const std::string& name) {
    const Preset* preset = Preset::find(name);
    if (preset == nullptr) {
        std::string known;
        for (const auto& n : Preset::names()) {
            known += (known.empty() ? "" : ", ") + n;
        }
        throw ConfigError("--preset", "unknown preset '" + name + "' (known: " + known + ")");
    }
    TrainOptions options;
    options.preset = preset->name;
    options.model = preset->model;
    options.batch_size = preset->batch_size;
    options.seq_len = preset->seq_len;
    return options;
}

void TrainOptions::validate() const {
    model.validate();
    model.validateSequence(seq_len);
    if (batch_size <= 0)
        throw ConfigError("--batch-size", "must be positive");
    if (num_steps <= 0)
        throw ConfigError("--num-steps", "must be positive");
    if (warmup_steps < 0)
        throw ConfigError("--warmup-steps", "must not be negative");
    if (!(learning_rate > 0.0))
        throw ConfigError("--learning-rate", "must be positive");
    if (threads < 0)
        throw ConfigError("--threads", "must not be negative (0 means all cores)");
    const bool cpu = device == "cpu";
    const bool gpu = device.rfind("cuda", 0) == 0;
    if (!cpu && !gpu) {
        throw ConfigError("--device", "unknown device '" + device + "' (use cpu, cuda or cuda:N)");
    }
    if (device_memory_limit < 0) {
        throw ConfigError("--device-memory-limit", "must not be negative");
    }
    if (gpu && device_memory_limit > 0) {
        throw ConfigError("--device-memory-limit",
                          "emulates a smaller device on CPU runs; a GPU run has its real capacity");
    }
    if (cpu && dtype == Dtype::Float16) {
        throw ConfigError("--dtype", "fp16 autocast needs a CUDA or ROCm device; on CPU use bf16");
    }
    SizeLimits::check(*this);
}

int TrainOptions::resolvedThreads() const {
    if (threads > 0) {
        return threads;
    }
    const unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : static_cast<int>(n);
}

nlohmann::json TrainOptions::toJson() const {
    return {
        {"preset", preset},
        {"vocab_size", model.vocab_size},
        {"hidden_dim", model.hidden_dim},
        {"num_layers", model.n_layers},
        {"num_heads", model.n_heads},
        {"num_kv_heads", model.n_kv_heads},
        {"intermediate_dim", model.intermediate_dim},
        {"max_seq_len", model.max_seq_len},
        {"rope_theta", model.rope_theta},
        {"norm_eps", model.norm_eps},
        {"tie_embeddings", model.tie_embeddings},
        {"batch_size", batch_size},
        {"seq_len", seq_len},
        {"num_steps", num_steps},
        {"warmup_steps", warmup_steps},
        {"learning_rate", learning_rate},
        {"weight_decay", weight_decay},
        {"sgd_momentum", sgd_momentum},
        {"seed", seed},
        {"threads", resolvedThreads()},
        {"dtype", toString(dtype)},
        {"attention", toString(attention)},
        {"checkpointing", toString(checkpointing)},
        {"profile_type", toString(profile)},
        {"optimizer", toString(optimizer)},
        {"device", device},
        {"device_memory_limit", device_memory_limit},
    };
}

TrainOptions TrainOptions::fromJson(const nlohmann::json& j) {
    return fromJson(j, TrainOptions());
}

TrainOptions TrainOptions::fromJson(const nlohmann::json& j, const TrainOptions& base) {
    TrainOptions o = base;
    auto read = [&j](const char* key, auto& field) {
        if (!j.contains(key)) {
            return;
        }
        try {
            j.at(key).get_to(field);
        } catch (const nlohmann::json::exception&) {
            throw ConfigError(std::string("--") + key, "has the wrong type");
        }
    };
    auto readEnum = [&j](const char* key, auto& field, auto parse) {
        if (!j.contains(key)) {
            return;
        }
        const auto text = j.at(key).is_string() ? j.at(key).get<std::string>() : std::string();
        auto parsed = parse(text);
        if (!parsed) {
            throw ConfigError(std::string("--") + key, "unknown value '" + text + "'");
        }
        field = *parsed;
    };
    read("preset", o.preset);
    read("vocab_size", o.model.vocab_size);
    read("hidden_dim", o.model.hidden_dim);
    read("num_layers", o.model.n_layers);
    read("num_heads", o.model.n_heads);
    read("num_kv_heads", o.model.n_kv_heads);
    read("intermediate_dim", o.model.intermediate_dim);
    read("max_seq_len", o.model.max_seq_len);
    read("rope_theta", o.model.rope_theta);
    read("norm_eps", o.model.norm_eps);
    read("tie_embeddings", o.model.tie_embeddings);
    read("batch_size", o.batch_size);
    read("seq_len", o.seq_len);
    read("num_steps", o.num_steps);
    read("warmup_steps", o.warmup_steps);
    read("learning_rate", o.learning_rate);
    read("weight_decay", o.weight_decay);
    read("sgd_momentum", o.sgd_momentum);
    read("seed", o.seed);
    read("threads", o.threads);
    read("device", o.device);
    read("device_memory_limit", o.device_memory_limit);
    readEnum("dtype", o.dtype, parseDtype);
    readEnum("attention", o.attention, parseAttentionKind);
    readEnum("checkpointing", o.checkpointing, parseCheckpointing);
    readEnum("profile_type", o.profile, parseProfileType);
    readEnum("optimizer", o.optimizer, parseOptimizerKind);
    return o;
}

}  // namespace memscope
