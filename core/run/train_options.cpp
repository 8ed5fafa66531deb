#include "run/train_options.h"

#include "model/config_error.h"
#include "model/preset.h"
#include "model/printable_text.h"
#include "model/train_option_table.h"
#include "run/byte_size.h"
#include "run/size_limits.h"
#include "run/text_format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <thread>

namespace memscope {

TrainOptions TrainOptions::fromPreset(const std::string& name) {
    const Preset* preset = Preset::find(name);
    if (preset == nullptr) {
        throw ConfigError(TrainOptionTable::flag("preset"),
                          "unknown preset '" + printableText(name) +
                              "' (known: " + joinedNames(Preset::names()) + ")");
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
        throw ConfigError(TrainOptionTable::flag("batch_size"), "must be positive");
    if (num_steps <= 0)
        throw ConfigError(TrainOptionTable::flag("num_steps"), "must be positive");
    if (warmup_steps < 0)
        throw ConfigError(TrainOptionTable::flag("warmup_steps"), "must not be negative");
    if (!(learning_rate > 0.0))
        throw ConfigError(TrainOptionTable::flag("learning_rate"), "must be positive");
    if (threads < 0)
        throw ConfigError(TrainOptionTable::flag("threads"),
                          "must not be negative (0 means all cores)");
    const bool cpu = device == "cpu";
    const bool gpu = device.rfind("cuda", 0) == 0;
    if (!cpu && !gpu) {
        throw ConfigError(TrainOptionTable::flag("device"),
                          "unknown device '" + device + "' (use cpu, cuda or cuda:N)");
    }
    if (device_memory_limit < 0) {
        throw ConfigError(TrainOptionTable::flag("device_memory_limit"), "must not be negative");
    }
    if (gpu && device_memory_limit > 0) {
        throw ConfigError(TrainOptionTable::flag("device_memory_limit"),
                          "emulates a smaller device on CPU runs; a GPU run has its real capacity");
    }
    if (cpu && dtype == Dtype::Float16) {
        throw ConfigError(TrainOptionTable::flag("dtype"),
                          "fp16 autocast needs a CUDA or ROCm device; on CPU use bf16");
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

namespace {

// How each of TrainOptionTable's rows reads and writes TrainOptions: the one place besides the
// struct itself that names its fields.
struct OptionBinding {
    const char* key;
    std::function<nlohmann::json(const TrainOptions&)> get;
    // Throws nlohmann::json::exception on a value of the wrong type, ConfigError on an unknown
    // name.
    std::function<void(TrainOptions&, const nlohmann::json&)> set;
};

template <typename V>
OptionBinding member(const char* key, V TrainOptions::*field) {
    return {key, [field](const TrainOptions& o) { return nlohmann::json(o.*field); },
            [field](TrainOptions& o, const nlohmann::json& j) { j.get_to(o.*field); }};
}

template <typename V>
OptionBinding modelMember(const char* key, V TinyLlamaConfig::*field) {
    return {key, [field](const TrainOptions& o) { return nlohmann::json(o.model.*field); },
            [field](TrainOptions& o, const nlohmann::json& j) { j.get_to(o.model.*field); }};
}

template <typename E, typename Parse>
OptionBinding choice(const char* key, E TrainOptions::*field, Parse parse) {
    return {key, [field](const TrainOptions& o) { return nlohmann::json(toString(o.*field)); },
            [key, field, parse](TrainOptions& o, const nlohmann::json& j) {
                const std::string text = j.get<std::string>();
                const auto value = parse(text);
                if (!value) {
                    const TrainOptionRow& row = TrainOptionTable::row(key);
                    throw ConfigError(row.flag, "unknown value '" + printableText(text) + "' (" +
                                                    joinedNames(row.choices()) + ")");
                }
                o.*field = *value;
            }};
}

const std::vector<OptionBinding>& bindings() {
    static const std::vector<OptionBinding> list{
        member("preset", &TrainOptions::preset),
        modelMember("vocab_size", &TinyLlamaConfig::vocab_size),
        modelMember("hidden_dim", &TinyLlamaConfig::hidden_dim),
        modelMember("num_layers", &TinyLlamaConfig::n_layers),
        modelMember("num_heads", &TinyLlamaConfig::n_heads),
        modelMember("num_kv_heads", &TinyLlamaConfig::n_kv_heads),
        modelMember("intermediate_dim", &TinyLlamaConfig::intermediate_dim),
        modelMember("max_seq_len", &TinyLlamaConfig::max_seq_len),
        modelMember("rope_theta", &TinyLlamaConfig::rope_theta),
        modelMember("norm_eps", &TinyLlamaConfig::norm_eps),
        modelMember("tie_embeddings", &TinyLlamaConfig::tie_embeddings),
        member("batch_size", &TrainOptions::batch_size),
        member("seq_len", &TrainOptions::seq_len),
        member("num_steps", &TrainOptions::num_steps),
        member("warmup_steps", &TrainOptions::warmup_steps),
        member("learning_rate", &TrainOptions::learning_rate),
        member("weight_decay", &TrainOptions::weight_decay),
        member("sgd_momentum", &TrainOptions::sgd_momentum),
        member("seed", &TrainOptions::seed),
        member("threads", &TrainOptions::threads),
        choice("dtype", &TrainOptions::dtype, parseDtype),
        choice("attention", &TrainOptions::attention, parseAttentionKind),
        choice("checkpointing", &TrainOptions::checkpointing, parseCheckpointing),
        choice("profile_type", &TrainOptions::profile, parseProfileType),
        choice("optimizer", &TrainOptions::optimizer, parseOptimizerKind),
        member("device", &TrainOptions::device),
        member("device_memory_limit", &TrainOptions::device_memory_limit),
    };
    return list;
}

const OptionBinding& bindingOf(std::string_view key) {
    for (const OptionBinding& b : bindings()) {
        if (key == b.key) {
            return b;
        }
    }
    throw std::logic_error("training option " + std::string(key) + " reads no field");
}

// The row's range on a value JSON gives (TrainOptionRow::checkRange: the flag's own check and
// message); a value of another type is left to the binding, which refuses it.
void checkGivenRange(const TrainOptionRow& row, const nlohmann::json& given) {
    if (given.is_number_unsigned()) {
        const uint64_t v = given.get<uint64_t>();
        if (v > uint64_t(std::numeric_limits<int64_t>::max())) {
            row.checkRange(double(v));  // past every range
        } else {
            row.checkRange(int64_t(v));
        }
    } else if (given.is_number_integer()) {
        row.checkRange(given.get<int64_t>());
    } else if (given.is_number_float()) {
        row.checkRange(given.get<double>());
    }
}

}  // namespace

nlohmann::json TrainOptions::toJson() const {
    nlohmann::json out = nlohmann::json::object();
    for (const TrainOptionRow& row : TrainOptionTable::rows()) {
        out[row.key] = bindingOf(row.key).get(*this);
    }
    // The run's record says how many threads it had, not "all cores" (0).
    out["threads"] = resolvedThreads();
    return out;
}

nlohmann::json TrainOptions::value(std::string_view key) const {
    return bindingOf(key).get(*this);
}

TrainOptions TrainOptions::fromJson(const nlohmann::json& j) {
    return fromJson(j, TrainOptions());
}

TrainOptions TrainOptions::fromJson(const nlohmann::json& j, const TrainOptions& base) {
    TrainOptions o = base;
    if (!j.is_object()) {
        return o;  // nothing given (a run without a recorded configuration)
    }
    for (const TrainOptionRow& row : TrainOptionTable::rows()) {
        if (!j.contains(row.key)) {
            continue;
        }
        const nlohmann::json& given = j.at(row.key);
        checkGivenRange(row, given);
        try {
            bindingOf(row.key).set(o, given);
        } catch (const nlohmann::json::exception&) {
            throw ConfigError(row.flag, "has the wrong type");
        }
    }
    return o;
}

nlohmann::json TrainOptions::parseValue(const TrainOptionRow& row, const std::string& text) {
    const std::string shown = "'" + printableText(text) + "'";
    switch (row.type) {
        case OptionType::Integer: {
            const std::optional<int64_t> number = parseWholeNumber(text);
            if (!number) {
                throw ConfigError(row.flag, shown + " is not a whole number");
            }
            row.checkRange(*number);
            return *number;
        }
        case OptionType::Real: {
            size_t used = 0;
            double v = 0;
            try {
                v = std::stod(text, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used == 0 || used != text.size() || !std::isfinite(v)) {
                throw ConfigError(row.flag, shown + " is not a number");
            }
            row.checkRange(v);
            return v;
        }
        case OptionType::Flag:
            if (text == "true" || text == "1" || text == "on" || text == "yes") {
                return true;
            }
            if (text == "false" || text == "0" || text == "off" || text == "no") {
                return false;
            }
            throw ConfigError(row.flag, shown + " is not true or false");
        case OptionType::Choice: {
            // The option's own parser reads it (with its aliases: "mem-efficient" is
            // memory-efficient);
            // the value is the name it reads as, which must be one of the row's choices. A
            // preset has no parser of its own: its choices decide, and "custom", which JSON
            // may say of a form's own shape, is none of them.
            TrainOptions scratch;
            bindingOf(row.key).set(scratch, nlohmann::json(text));
            const nlohmann::json name = bindingOf(row.key).get(scratch);
            const std::vector<std::string> names = row.choices();
            if (std::find(names.begin(), names.end(), name.get<std::string>()) == names.end()) {
                throw ConfigError(row.flag,
                                  "unknown value " + shown + " (" + joinedNames(names) + ")");
            }
            return name;
        }
        case OptionType::Text:
            return text;
        case OptionType::Bytes: {
            // 0 is no limit here too, as in JSON and the form (row.zero_text).
            const auto bytes = parseByteSize(text);
            if (!bytes) {
                throw ConfigError(row.flag, shown + " is not a size (try 512MiB or 2GiB)");
            }
            row.checkRange(*bytes);
            return *bytes;
        }
    }
    return text;
}

TrainOptions TrainOptions::withChanges(const nlohmann::json& changes, const TrainOptions& base) {
    nlohmann::json given = changes;
    // CS336-style shapes have no GQA: KV heads follow the heads unless they are given too.
    if (given.contains("num_heads") && !given.contains("num_kv_heads") &&
        given["num_heads"].is_number_integer() &&
        base.model.n_kv_heads > given["num_heads"].get<int64_t>()) {
        given["num_kv_heads"] = given["num_heads"];
    }
    // A longer sequence than the model's longest makes the model accept it, unless that is
    // given too.
    if (given.contains("seq_len") && !given.contains("max_seq_len") &&
        given["seq_len"].is_number_integer()) {
        given["max_seq_len"] = std::max(base.model.max_seq_len, given["seq_len"].get<int64_t>());
    }
    return fromJson(given, base);
}

}  // namespace memscope
