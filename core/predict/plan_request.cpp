#include "predict/plan_request.h"

#include "model/config_error.h"
#include "model/preset.h"
#include "model/printable_text.h"
#include "predict/model_shapes.h"

#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
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
    std::map<std::string, int64_t> shape;
    std::optional<bool> tied;
    bool dtype_given = false;
    readSection(
        root, "model",
        {{"type",
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
         {"hidden_dim", [&](auto& n, auto& f) { shape["hidden"] = integer(n, f); }},
         {"num_layers", [&](auto& n, auto& f) { shape["layers"] = integer(n, f); }},
         {"num_heads", [&](auto& n, auto& f) { shape["heads"] = integer(n, f); }},
         {"num_kv_heads", [&](auto& n, auto& f) { shape["kv"] = integer(n, f); }},
         {"intermediate_dim", [&](auto& n, auto& f) { shape["ffn"] = integer(n, f); }},
         {"vocab_size", [&](auto& n, auto& f) { shape["vocab"] = integer(n, f); }},
         {"tie_embeddings", [&](auto& n, auto& f) { tied = flag(n, f); }},
         {"batch_size", [&](auto& n, auto& f) { shape["batch"] = integer(n, f); }},
         {"sequence_length", [&](auto& n, auto& f) { shape["seq"] = integer(n, f); }},
         {"precision",
          [&](const YAML::Node& n, const std::string& f) {
              const auto d = parseDtype(text(n, f));
              if (!d) {
                  throw ConfigError(f, "fp32, bf16 or fp16");
              }
              o.dtype = *d;
              dtype_given = true;
          }},
         {"attention",
          [&](const YAML::Node& n, const std::string& f) {
              auto t = text(n, f);
              if (t == "flash" || t == "flash_attention") {
                  t = "sdpa";
                  r.semantics.sdpa_is_flash = true;
              }
              const auto a = parseAttentionKind(t);
              if (!a) {
                  throw ConfigError(f, "eager, fused, sdpa, memory-efficient or flash");
              }
              o.attention = *a;
          }},
         {"checkpointing",
          [&](const YAML::Node& n, const std::string& f) {
              const auto c = parseCheckpointing(text(n, f));
              if (!c) {
                  throw ConfigError(f, "none or per-block");
              }
              o.checkpointing = *c;
          }},
         {"profile",
          [&](const YAML::Node& n, const std::string& f) {
              const auto p = parseProfileType(text(n, f));
              if (!p) {
                  throw ConfigError(f, "training or forward");
              }
              o.profile = *p;
          }},
         {"optimizer", [&](const YAML::Node& n, const std::string& f) {
              const auto p = parseOptimizerKind(text(n, f));
              if (!p) {
                  throw ConfigError(f, "adamw or sgd");
              }
              o.optimizer = *p;
          }}});
    if (billions && preset) {
        throw ConfigError("model.size_billions", "give either size_billions or preset");
    }
    if (preset) {
        o = TrainOptions::fromPreset(*preset);
    }
    const int64_t seq = shape.count("seq") ? shape["seq"] : (billions ? 2048 : o.seq_len);
    if (billions) {
        o.preset = "custom";
        o.model = ModelShapes::forBillions(*billions, seq);
        if (!dtype_given) {
            o.dtype = Dtype::BFloat16;
        }
    }
    auto set = [&](const char* key, int64_t& target) {
        if (shape.count(key)) {
            target = shape[key];
        }
    };
    set("hidden", o.model.hidden_dim);
    set("layers", o.model.n_layers);
    set("heads", o.model.n_heads);
    set("kv", o.model.n_kv_heads);
    set("ffn", o.model.intermediate_dim);
    set("vocab", o.model.vocab_size);
    set("batch", o.batch_size);
    if (shape.count("heads") && !shape.count("kv")) {
        o.model.n_kv_heads = o.model.n_heads;
    }
    if (tied) {
        o.model.tie_embeddings = *tied;
    }
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
