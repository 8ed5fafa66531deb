#include "predict/plan_request.h"

#include "model/config_error.h"
#include "model/preset.h"
#include "model/printable_text.h"
#include "model/train_option_table.h"
#include "predict/model_shapes.h"

#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <sstream>

namespace memscope {

namespace {

using Handler = std::function<void(const YAML::Node&, const std::string&)>;

void readSection(const YAML::Node& root, const std::string& section,
                 const std::map<std::string, Handler>& fields) {
    const auto node = root[section];
    if (!node) {
        return;
    }
    if (!node.IsMap()) {
        throw ConfigError(section, "must be a mapping of fields");
    }
    for (const auto& entry : node) {
        if (!entry.first.IsScalar()) {  // `? [a, b]: 1`: as<std::string>() would throw
            throw ConfigError(section, "field names must be plain words");
        }
        const auto key = printableText(entry.first.as<std::string>());
        const auto field = section + "." + key;
        const auto it = fields.find(key);
        if (it == fields.end()) {
            throw ConfigError(field, "unknown field");
        }
        it->second(entry.second, field);
    }
}

std::string text(const YAML::Node& node, const std::string& field) {
    if (!node.IsScalar()) {
        throw ConfigError(field, "must be a single value");
    }
    return node.as<std::string>();
}

double number(const YAML::Node& node, const std::string& field) {
    try {
        return node.as<double>();
    } catch (const YAML::Exception&) {
        throw ConfigError(field,
                          "must be a number, not '" + printableText(text(node, field)) + "'");
    }
}

int64_t integer(const YAML::Node& node, const std::string& field, int64_t minimum = 1) {
    int64_t value = 0;
    try {
        value = node.as<int64_t>();
    } catch (const YAML::Exception&) {
        throw ConfigError(field,
                          "must be an integer, not '" + printableText(text(node, field)) + "'");
    }
    if (value < minimum) {
        throw ConfigError(field, "must be at least " + std::to_string(minimum));
    }
    return value;
}

bool flag(const YAML::Node& node, const std::string& field) {
    try {
        return node.as<bool>();
    } catch (const YAML::Exception&) {
        throw ConfigError(field, "must be true or false");
    }
}

// "must be one of fp32, bf16, fp16"
std::string oneOf(const std::vector<std::string>& names) {
    std::string text = "must be one of ";
    for (size_t i = 0; i < names.size(); ++i) {
        text += (i ? ", " : "") + names[i];
    }
    return text;
}

}  // namespace

PlanRequest PlanRequest::fromYaml(const std::string& yaml_text) {
    YAML::Node root;
    try {
        root = YAML::Load(yaml_text);
    } catch (const YAML::Exception& e) {
        throw ConfigError("config", std::string("not valid YAML: ") + e.what());
    }
    if (!root.IsMap()) {
        throw ConfigError("config",
                          "must be a mapping with model, hardware, cluster, "
                          "distribution and analysis sections");
    }
    for (const auto& entry : root) {
        if (!entry.first.IsScalar()) {
            throw ConfigError("config", "section names must be plain words");
        }
        const auto key = printableText(entry.first.as<std::string>());
        if (key != "model" && key != "hardware" && key != "cluster" && key != "distribution" &&
            key != "analysis") {
            throw ConfigError(key, "unknown section");
        }
    }
    if (!static_cast<const YAML::Node&>(root)["model"]) {
        throw ConfigError("model", "section is missing");
    }
    PlanRequest r;
    auto& o = r.workload;
    o = TrainOptions::fromPreset("workshop-default");
    std::optional<double> billions;
    std::optional<std::string> preset;
    nlohmann::json given = nlohmann::json::object();  // TrainOptions' keys
    std::map<std::string, Handler> model_fields{
        {"type",
         [](const YAML::Node& n, const std::string& f) {
             const auto t = text(n, f);
             if (t != "transformer" && t != "transformer_decoder" && t != "llama") {
                 throw ConfigError(
                     f, "only transformer decoders are modelled, not '" + printableText(t) + "'");
             }
         }},
        {"framework",
         [](const YAML::Node& n, const std::string& f) {
             const auto t = text(n, f);
             if (t != "pytorch" && t != "libtorch") {
                 throw ConfigError(f, "pytorch or libtorch, not '" + printableText(t) + "'");
             }
         }},
        {"size_billions",
         [&](const YAML::Node& n, const std::string& f) {
             billions = number(n, f);
             if (!(*billions > 0)) {
                 throw ConfigError(f, "must be positive");
             }
         }},
        {"preset",
         [&](const YAML::Node& n, const std::string& f) {
             preset = text(n, f);
             if (Preset::find(*preset) == nullptr) {
                 throw ConfigError(f, "unknown preset '" + printableText(*preset) + "'");
             }
         }},
        {"attention",
         [&](const YAML::Node& n, const std::string& f) {
             auto t = text(n, f);
             if (t == "flash" || t == "flash_attention") {
                 t = "sdpa";
                 r.semantics.sdpa_is_flash = true;
             }
             if (!parseAttentionKind(t)) {
                 throw ConfigError(f, oneOf(attentionKindNames()) + " or flash");
             }
             given["attention"] = t;
         }},
        {"tie_embeddings",
         [&](const YAML::Node& n, const std::string& f) { given["tie_embeddings"] = flag(n, f); }}};
    // The other training options of the section, by their planner names (TrainOptionTable:
    // the ranges and names the CLI and the forms use too), read into TrainOptions by
    // TrainOptions::fromJson.
    for (const TrainOptionRow& row : TrainOptionTable::rows()) {
        if (row.planner_name == nullptr || model_fields.count(row.planner_name) > 0) {
            continue;  // not the planner's, or read above (preset, attention, tie_embeddings)
        }
        if (row.type == OptionType::Integer) {
            model_fields[row.planner_name] = [&given, &row](const YAML::Node& n,
                                                            const std::string& f) {
                const int64_t value = integer(n, f, std::numeric_limits<int64_t>::min());
                try {
                    row.checkRange(value);  // the flag's own check, named by the YAML field
                } catch (const ConfigError& e) {
                    throw ConfigError(f, e.reason());
                }
                given[row.key] = value;
            };
        } else if (row.type == OptionType::Choice) {
            model_fields[row.planner_name] = [&given, &row](const YAML::Node& n,
                                                            const std::string& f) {
                try {
                    given[row.key] = TrainOptions::parseValue(row, text(n, f));
                } catch (const ConfigError&) {
                    throw ConfigError(f, oneOf(row.choices()));
                }
            };
        }
    }
    readSection(root, "model", model_fields);
    if (billions && preset) {
        throw ConfigError("model.size_billions", "give either size_billions or preset");
    }
    if (preset) {
        o = TrainOptions::fromPreset(*preset);
    }
    const int64_t seq =
        given.contains("seq_len") ? given["seq_len"].get<int64_t>() : (billions ? 2048 : o.seq_len);
    if (billions) {
        o.preset = "custom";
        o.model = ModelShapes::forBillions(*billions, seq);
        if (!given.contains("dtype")) {
            o.dtype = Dtype::BFloat16;
        }
    }
    if (given.contains("num_heads") && !given.contains("num_kv_heads")) {
        given["num_kv_heads"] = given["num_heads"];
    }
    o = TrainOptions::fromJson(given, o);
    o.seq_len = seq;
    o.model.max_seq_len = std::max(o.model.max_seq_len, seq);
    try {
        o.model.validate();
    } catch (const ConfigError& e) {
        throw ConfigError("model", e.what());
    }

    std::string device_name;
    readSection(root, "hardware",
                {{"gpu_type", [&](auto& n, auto& f) { device_name = text(n, f); }},
                 {"device", [&](auto& n, auto& f) { device_name = text(n, f); }},
                 {"memory_gb", [&](auto& n, auto& f) {
                      const double gb = number(n, f);
                      if (!(gb > 0)) {
                          throw ConfigError(f, "must be positive");
                      }
                      r.capacity_bytes = int64_t(gb * double(1 << 30));
                  }}});
    r.device = device_name.empty() ? (billions ? "NVIDIA H100" : "CPU") : device_name;

    auto& p = r.parallel;
    readSection(root, "cluster",
                {{"num_gpus", [&](auto& n, auto& f) { p.gpus = int(integer(n, f)); }},
                 {"interconnect", [&](auto& n, auto& f) { p.interconnect = text(n, f); }},
                 {"nodes", [&](auto& n, auto& f) { integer(n, f); }},
                 {"gpus_per_node", [&](auto& n, auto& f) { p.gpus_per_node = int(integer(n, f)); }},
                 {"network_gbs", [&](auto& n, auto& f) { p.network_gbs = number(n, f); }}});
    const YAML::Node& const_root = root;
    if (const_root["cluster"] && const_root["cluster"]["nodes"]) {
        const auto n = integer(const_root["cluster"]["nodes"], "cluster.nodes");
        if (const_root["cluster"]["gpus_per_node"] && n * p.gpus_per_node != p.gpus) {
            throw ConfigError("cluster.nodes", "nodes x gpus_per_node must equal num_gpus");
        }
    }
    readSection(
        root, "distribution",
        {{"strategy",
          [&](const YAML::Node& n, const std::string& f) {
              const auto s = parseParallelStrategy(text(n, f));
              if (!s) {
                  throw ConfigError(f,
                                    "single, data_parallel, tensor_parallel, "
                                    "pipeline_parallel or hybrid");
              }
              p.strategy = *s;
          }},
         {"data_parallel", [&](auto& n, auto& f) { p.data = int(integer(n, f)); }},
         {"tensor_parallel", [&](auto& n, auto& f) { p.tensor = int(integer(n, f)); }},
         {"pipeline_parallel", [&](auto& n, auto& f) { p.pipeline = int(integer(n, f)); }},
         {"zero_stage", [&](auto& n, auto& f) { p.zero_stage = int(integer(n, f, 0)); }},
         {"micro_batches", [&](auto& n, auto& f) { p.micro_batches = int(integer(n, f)); }}});
    if (const_root["distribution"] && !const_root["cluster"]) {
        // memprof-training derives the GPU count from the degrees when no cluster is given
        p.gpus = std::max(1, p.data) * std::max(1, p.tensor) * std::max(1, p.pipeline);
    }
    try {
        (void)p.resolved();
    } catch (const ConfigError& e) {
        throw ConfigError("distribution", e.what());
    }
    readSection(root, "analysis",
                {{"enable_bottlenecks", [&](auto& n, auto& f) { r.bottlenecks = flag(n, f); }},
                 {"basic_mode", [&](auto& n, auto& f) { r.bottlenecks = !flag(n, f); }},
                 {"max_batch_size", [&](auto& n, auto& f) { r.max_batch = flag(n, f); }},
                 {"mfu",
                  [&](const YAML::Node& n, const std::string& f) {
                      r.mfu = number(n, f);
                      if (!(r.mfu > 0 && r.mfu <= 1)) {
                          throw ConfigError(f, "must be in (0, 1]");
                      }
                      r.mfu_source = "given in the configuration";
                  }},
                 {"train_tokens",
                  [&](const YAML::Node& n, const std::string& f) {
                      r.train_tokens = number(n, f);
                      if (!(r.train_tokens > 0)) {
                          throw ConfigError(f, "must be positive");
                      }
                  }},
                 {"grads_set_to_none",
                  [&](auto& n, auto& f) { r.semantics.grads_set_to_none = flag(n, f); }}});
    return r;
}

PlanRequest PlanRequest::fromYamlFile(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        throw ConfigError("--config", "cannot read " + path);
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    try {
        return fromYaml(buffer.str());
    } catch (const ConfigError& e) {
        const std::string what = e.what();
        throw ConfigError(path + ": " + e.option(),
                          what.substr(std::min(what.size(), e.option().size() + 2)));
    }
}

nlohmann::json PlanRequest::toJson() const {
    return {{"workload", workload.toJson()},
            {"grads_set_to_none", semantics.grads_set_to_none},
            {"sdpa_is_flash", semantics.sdpa_is_flash},
            {"device", device},
            {"parallel", parallel.toJson()},
            {"mfu", mfu},
            {"mfu_source", mfu_source},
            {"train_tokens", train_tokens},
            {"capacity_bytes", capacity_bytes}};
}

}  // namespace memscope
