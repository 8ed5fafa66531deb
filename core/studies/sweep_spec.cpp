#include "studies/sweep_spec.h"

#include "model/config_error.h"
#include "model/preset.h"
#include "model/printable_text.h"
#include "model/train_option_table.h"
#include "run/byte_size.h"
#include "run/text_format.h"

#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace memscope {

namespace {

template <typename T, typename Parse>
std::vector<T> parseEach(const std::string& field, const std::string& text, Parse parse,
                         const std::string& expected) {
    std::vector<T> out;
    for (const auto& item : SweepSpec::splitList(text)) {
        const auto value = parse(item);
        if (!value) {
            throw ConfigError(field, "'" + printableText(item) + "' is not one of " + expected);
        }
        if (std::find(out.begin(), out.end(), *value) == out.end()) {
            out.push_back(*value);
        }
    }
    if (out.empty()) {
        throw ConfigError(field, "the list is empty");
    }
    return out;
}

// The point's model is its preset's (TinyLlamaConfig::sameShape says why the sequence limit
// and two numbers do not count).
bool matchesPreset(const TrainOptions& o) {
    const Preset* p = Preset::find(o.preset);
    return p != nullptr && p->model.sameShape(o.model);
}

std::string pointLabel(const TrainOptions& o) {
    std::string label = matchesPreset(o) ? o.preset
                                         : "custom-h" + std::to_string(o.model.hidden_dim) + "-l" +
                                               std::to_string(o.model.n_layers);
    label += "-bs" + std::to_string(o.batch_size) + "-seq" + std::to_string(o.seq_len) + "-" +
             toString(o.dtype) + "-" + toString(o.attention) + "-" + toString(o.checkpointing) +
             "-" + toString(o.profile);
    return label;
}

}  // namespace

std::string SweepSpec::modelName(const TrainOptions& o) {
    if (matchesPreset(o)) {
        return o.preset;
    }
    return "custom (hidden " + std::to_string(o.model.hidden_dim) + ", " +
           std::to_string(o.model.n_layers) + (o.model.n_layers == 1 ? " layer)" : " layers)");
}

std::string toString(SweepSpec::Mode mode) {
    return mode == SweepSpec::Mode::Axes ? "axes" : "grid";
}

std::vector<std::string> SweepSpec::splitList(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        item = trimmedText(item, true);
        if (!item.empty()) {
            out.push_back(item);
        }
    }
    return out;
}

std::vector<int64_t> SweepSpec::parseSizes(const std::string& field, const std::string& text,
                                           std::string_view option) {
    const TrainOptionRow& spec = TrainOptionTable::row(option);
    if (!spec.sweep) {
        throw std::logic_error("training option " + std::string(option) + " is no sweep axis");
    }
    return parseEach<int64_t>(
        field, text,
        [&spec, &field](const std::string& item) -> std::optional<int64_t> {
            const std::optional<int64_t> v = parseWholeNumber(item);
            if (v) {
                try {
                    spec.checkRange(*v);  // the option's own check, named by the list's field
                } catch (const ConfigError& e) {
                    throw ConfigError(field, e.reason());
                }
            }
            return v;
        },
        "the whole numbers " + std::to_string(spec.min) + " to " + std::to_string(spec.max));
}

std::vector<Dtype> SweepSpec::parseDtypes(const std::string& field, const std::string& text) {
    return parseEach<Dtype>(field, text, memscope::parseDtype, joinedNames(dtypeNames()));
}

std::vector<AttentionKind> SweepSpec::parseAttentions(const std::string& field,
                                                      const std::string& text) {
    return parseEach<AttentionKind>(field, text, memscope::parseAttentionKind,
                                    joinedNames(attentionKindNames()));
}

std::vector<Checkpointing> SweepSpec::parseCheckpointing(const std::string& field,
                                                         const std::string& text) {
    return parseEach<Checkpointing>(
        field, text,
        [](const std::string& item) -> std::optional<Checkpointing> {
            if (item == "off" || item == "false" || item == "no") {
                return Checkpointing::None;
            }
            if (item == "on" || item == "true" || item == "yes") {
                return Checkpointing::PerBlock;
            }
            return memscope::parseCheckpointing(item);
        },
        "off, on, " + joinedNames(checkpointingNames()));
}

std::vector<ProfileType> SweepSpec::parseProfiles(const std::string& field,
                                                  const std::string& text) {
    return parseEach<ProfileType>(field, text, memscope::parseProfileType,
                                  joinedNames(profileTypeNames()));
}

std::vector<std::string> SweepSpec::parsePresets(const std::string& field,
                                                 const std::string& text) {
    return parseEach<std::string>(
        field, text,
        [](const std::string& item) -> std::optional<std::string> {
            return Preset::find(item) ? std::optional<std::string>(item) : std::nullopt;
        },
        joinedNames(Preset::names()));
}

std::vector<SweepPoint> SweepSpec::points() const {
    const std::vector<std::string> presets_ =
        presets.empty() ? std::vector<std::string>{std::string()} : presets;
    const std::vector<Dtype> dtypes_ = dtypes.empty() ? std::vector<Dtype>{base.dtype} : dtypes;
    const std::vector<AttentionKind> attentions_ =
        attentions.empty() ? std::vector<AttentionKind>{base.attention} : attentions;
    const std::vector<Checkpointing> checkpointing_ =
        checkpointing.empty() ? std::vector<Checkpointing>{base.checkpointing} : checkpointing;
    const std::vector<ProfileType> profiles_ =
        profiles.empty() ? std::vector<ProfileType>{base.profile} : profiles;

    std::vector<SweepPoint> out;
    std::set<std::string> seen;
    for (const auto& preset : presets_) {
        TrainOptions start = base;
        if (!preset.empty()) {
            const TrainOptions p = TrainOptions::fromPreset(preset);
            start.preset = p.preset;
            start.model = p.model;
            start.batch_size = p.batch_size;
            start.seq_len = p.seq_len;
        }
        // (batch, seq) pairs of this preset.
        std::vector<std::pair<int64_t, int64_t>> sizes;
        const auto add = [&sizes](int64_t b, int64_t s) {
            if (std::find(sizes.begin(), sizes.end(), std::make_pair(b, s)) == sizes.end()) {
                sizes.emplace_back(b, s);
            }
        };
        if (mode == Mode::Grid) {
            for (const int64_t b :
                 batch_sizes.empty() ? std::vector<int64_t>{start.batch_size} : batch_sizes) {
                for (const int64_t s :
                     seq_lens.empty() ? std::vector<int64_t>{start.seq_len} : seq_lens) {
                    add(b, s);
                }
            }
        } else {
            for (const int64_t s : seq_lens) {
                add(start.batch_size, s);
            }
            for (const int64_t b : batch_sizes) {
                add(b, start.seq_len);
            }
            if (sizes.empty()) {
                add(start.batch_size, start.seq_len);
            }
        }
        for (const auto& [b, s] : sizes) {
            for (const Dtype d : dtypes_) {
                for (const AttentionKind a : attentions_) {
                    for (const Checkpointing c : checkpointing_) {
                        for (const ProfileType p : profiles_) {
                            SweepPoint point;
                            TrainOptions& o = point.options;
                            o = start;
                            o.batch_size = b;
                            o.seq_len = s;
                            o.model.max_seq_len = std::max(o.model.max_seq_len, s);
                            o.dtype = d;
                            o.attention = a;
                            o.checkpointing = c;
                            o.profile = p;
                            if (steps > 0) {
                                o.num_steps = steps;
                            }
                            if (capacity_bytes > 0) {
                                o.device_memory_limit = capacity_bytes;
                            }
                            point.label = pointLabel(o);
                            if (!seen.insert(point.label).second) {
                                continue;
                            }
                            try {
                                o.validate();
                            } catch (const ConfigError& e) {
                                throw ConfigError(
                                    e.option(),
                                    std::string(e.what()) + " (sweep point " + point.label + ")");
                            }
                            out.push_back(std::move(point));
                        }
                    }
                }
            }
        }
    }
    return out;
}

void SweepSpec::mergeYamlFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw ConfigError("--config", "cannot read '" + path + "'");
    }
    std::stringstream text;
    text << in.rdbuf();
    mergeYaml(text.str(), path);
}

void SweepSpec::mergeYaml(const std::string& text, const std::string& source) {
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::Exception& e) {
        throw ConfigError(source,
                          "not YAML: " + e.msg + " (line " + std::to_string(e.mark.line + 1) + ")");
    }
    if (root.IsNull()) {
        return;
    }
    if (!root.IsMap()) {
        throw ConfigError(source, "expected a mapping of sweep fields (batch_sizes: [4, 8])");
    }
    for (const auto& entry : root) {
        if (!entry.first.IsScalar()) {  // `? [a, b]: 1`: as<std::string>() would throw
            throw ConfigError(source, "field names must be plain words");
        }
        const std::string key = printableText(entry.first.as<std::string>());
        const YAML::Node& value = entry.second;
        const std::string field = source + ": " + key;
        // Lists may be YAML sequences or "4,8,16" strings: both become the CLI's list syntax.
        std::string list;
        if (value.IsSequence()) {
            for (const auto& item : value) {
                if (!item.IsScalar()) {
                    throw ConfigError(field, "expected a list of plain values");
                }
                list += (list.empty() ? "" : ",") + item.as<std::string>();
            }
        } else if (value.IsScalar()) {
            list = value.as<std::string>();
        } else {
            throw ConfigError(field, "expected a value or a list");
        }
        if (key == "batch_sizes" || key == "batch_size") {
            batch_sizes = parseSizes(field, list, "batch_size");
        } else if (key == "seq_lens" || key == "seq_len" || key == "context_lengths") {
            seq_lens = parseSizes(field, list, "seq_len");
        } else if (key == "presets" || key == "preset" || key == "model_sizes") {
            presets = parsePresets(field, list);
        } else if (key == "dtypes" || key == "dtype") {
            dtypes = parseDtypes(field, list);
        } else if (key == "attention" || key == "attentions") {
            attentions = parseAttentions(field, list);
        } else if (key == "checkpointing") {
            checkpointing = parseCheckpointing(field, list);
        } else if (key == "profile_types" || key == "profile_type") {
            profiles = parseProfiles(field, list);
        } else if (key == "steps" || key == "num_steps") {
            const auto v = parseSizes(field, list, "num_steps");
            if (v.size() != 1) {
                throw ConfigError(field, "expected one number");
            }
            steps = v.front();
        } else if (key == "capacity" || key == "device_memory_limit") {
            const auto bytes = parseByteSize(list);
            if (!bytes || *bytes <= 0) {
                throw ConfigError(
                    field, "'" + printableText(list) + "' is not a size (try 512MiB or 2GiB)");
            }
            capacity_bytes = *bytes;
        } else if (key == "mode") {
            if (list == "grid") {
                mode = Mode::Grid;
            } else if (list == "axes") {
                mode = Mode::Axes;
            } else {
                throw ConfigError(field, "'" + printableText(list) + "' is not one of grid, axes");
            }
        } else {
            throw ConfigError(field,
                              "unknown field (known: batch_sizes, seq_lens, presets, dtypes, "
                              "attention, checkpointing, profile_types, steps, capacity, mode)");
        }
    }
}

nlohmann::json SweepSpec::toJson() const {
    nlohmann::json j;
    j["batch_sizes"] = batch_sizes;
    j["seq_lens"] = seq_lens;
    j["presets"] = presets;
    const auto names = [](const auto& values) {
        std::vector<std::string> out;
        for (const auto& v : values) {
            out.push_back(toString(v));
        }
        return out;
    };
    j["dtypes"] = names(dtypes);
    j["attention"] = names(attentions);
    j["checkpointing"] = names(checkpointing);
    j["profile_types"] = names(profiles);
    j["steps"] = steps;
    j["capacity_bytes"] = capacity_bytes;
    j["mode"] = toString(mode);
    j["base"] = base.toJson();
    return j;
}

SweepSpec SweepSpec::fromJson(const nlohmann::json& j) {
    SweepSpec s;
    if (!j.is_object()) {
        throw ConfigError("spec", "expected an object");
    }
    const auto joined = [&j](const char* key) {
        std::string out;
        if (j.contains(key) && j[key].is_array()) {
            for (const auto& v : j[key]) {
                out += (out.empty() ? "" : ",") + (v.is_string() ? v.get<std::string>() : v.dump());
            }
        }
        return out;
    };
    if (j.contains("base")) {
        s.base = TrainOptions::fromJson(j["base"]);
    }
    if (!joined("batch_sizes").empty())
        s.batch_sizes = parseSizes("spec.batch_sizes", joined("batch_sizes"), "batch_size");
    if (!joined("seq_lens").empty())
        s.seq_lens = parseSizes("spec.seq_lens", joined("seq_lens"), "seq_len");
    if (!joined("presets").empty())
        s.presets = parsePresets("spec.presets", joined("presets"));
    if (!joined("dtypes").empty())
        s.dtypes = parseDtypes("spec.dtypes", joined("dtypes"));
    if (!joined("attention").empty())
        s.attentions = parseAttentions("spec.attention", joined("attention"));
    if (!joined("checkpointing").empty())
        s.checkpointing = parseCheckpointing("spec.checkpointing", joined("checkpointing"));
    if (!joined("profile_types").empty())
        s.profiles = parseProfiles("spec.profile_types", joined("profile_types"));
    if (j.contains("steps") && j["steps"].is_number_integer())
        s.steps = j["steps"].get<int64_t>();
    if (j.contains("capacity_bytes") && j["capacity_bytes"].is_number_integer())
        s.capacity_bytes = j["capacity_bytes"].get<int64_t>();
    s.mode = j.value("mode", std::string("grid")) == "axes" ? Mode::Axes : Mode::Grid;
    return s;
}

}  // namespace memscope
