#include "report/report_run.h"

#include "analysis/table_exporter.h"
#include "explain/module_table.h"
#include "explain/oom_explanation.h"
#include "explain/trace_summary.h"
#include "model/model_cost.h"
#include "model/preset.h"
#include "model/train_option_table.h"
#include "predict/fit_advice.h"
#include "predict/memory_model.h"
#include "report/growth_chapter.h"
#include "report/size_table_chapter.h"
#include "run/run_summary.h"
#include "run/text_format.h"
#include "studies/seed_tables.h"
#include "studies/sweep_result.h"
#include "trace/recorded_options.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <sstream>

namespace memscope::report_detail {

std::string arg(const char* key, const std::string& value) {
    return TrainOptionTable::argument(key, value);
}

std::string code(const std::string& s) {
    return "`" + s + "`";
}

bool isCs336Preset(const std::string& name) {
    const Preset* preset = Preset::find(name);
    return preset != nullptr && preset->cs336;
}

Run describe(const Trace& trace, const std::string& name) {
    Run r;
    r.trace = &trace;
    r.name = name;
    r.s = TraceSummary::compute(trace);
    if (trace.summary.is_object()) {
        for (const auto& [k, v] : trace.summary.items()) {
            r.s[k] = v;
        }
    }
    // The run's options, typed (its stored configuration, else the stored summary's); without
    // them (an import without --config) the shape stays 0 and the run joins no table that
    // groups by it, and the names are TrainOptions' defaults.
    std::optional<TrainOptions> options = recordedOptions(trace.meta);
    if (!options) {
        options = recordedOptions(r.s.value("config", nlohmann::json::object()));
    }
    r.options = options;
    const TrainOptions o = options.value_or(TrainOptions());
    r.dtype = toString(o.dtype);
    r.attention = toString(o.attention);
    r.checkpointing = toString(o.checkpointing);
    r.profile = toString(o.profile);
    r.optimizer = toString(o.optimizer);
    if (options) {
        r.preset = o.preset;
        r.batch = o.batch_size;
        r.seq = o.seq_len;
        r.hidden = o.model.hidden_dim;
        r.layers = o.model.n_layers;
        r.heads = o.model.n_heads;
        r.kv_heads = o.model.n_kv_heads;
        r.inter = o.model.intermediate_dim;
        r.vocab = o.model.vocab_size;
        r.num_steps = o.num_steps;
    }
    if (const Preset* p = Preset::find(r.preset)) {
        const auto& m = p->model;
        if (m.hidden_dim == r.hidden && m.n_layers == r.layers && m.n_heads == r.heads &&
            m.n_kv_heads == r.kv_heads && m.intermediate_dim == r.inter &&
            m.vocab_size == r.vocab) {
            r.known = p;
        }
    }
    r.cs336 = isCs336Preset(r.preset);
    r.peak =
        r.s.value("peak_allocated_bytes", r.s.value("peak_allocated_bytes_recorded", int64_t(0)));
    r.avg = r.s.value("avg_allocated_bytes", int64_t(0));
    if (r.s.contains("samples_per_s") && r.s["samples_per_s"].is_number()) {
        r.samples_per_s = r.s["samples_per_s"].get<double>();
    }
    return r;
}

SweepResult asPoints(const std::vector<const Run*>& runs) {
    SweepResult result;
    for (const Run* r : runs) {
        if (!r->configured() || !r->options) {
            continue;
        }
        SweepPointResult p;
        p.label = r->name;
        p.run_file = r->name;
        p.options = *r->options;
        p.parameters = r->s.value("parameters", int64_t(0));
        p.peak_bytes = r->peak;
        p.avg_bytes = r->avg;
        p.samples_per_s = std::max(0.0, r->samples_per_s);  // 0: not stored
        p.tokens_per_s = p.samples_per_s * double(p.options.seq_len);
        const auto& categories = r->s.value("bytes_by_category_at_peak", nlohmann::json::object());
        for (const auto& [category, bytes] : categories.items()) {
            if (bytes.is_number_integer()) {
                p.bytes_by_category_at_peak[category] = bytes.get<int64_t>();
            }
        }
        p.static_bytes = r->staticAtPeak();
        if (r->s.contains("oom") && r->s["oom"].is_object()) {
            p.status = SweepPointResult::Status::OutOfMemory;
        }
        result.points.push_back(std::move(p));
    }
    result.planned_points = int64_t(result.points.size());
    return result;
}

std::string recordCommand(const Run& t, const Want& w) {
    std::ostringstream cmd;
    cmd << "memscope-cli record";
    const Preset* p = Preset::find(t.preset);
    if (p) {
        cmd << " " << (t.cs336 ? "--model-size " + t.preset : arg("preset", t.preset));
    }
    const auto dim = [&](const char* key, int64_t value, int64_t preset_value) {
        if (!p || value != preset_value) {
            cmd << " " << arg(key, std::to_string(value));
        }
    };
    dim("hidden_dim", t.hidden, p ? p->model.hidden_dim : 0);
    dim("num_layers", t.layers, p ? p->model.n_layers : 0);
    dim("num_heads", t.heads, p ? p->model.n_heads : 0);
    dim("num_kv_heads", t.kv_heads, p ? p->model.n_kv_heads : 0);
    dim("intermediate_dim", t.inter, p ? p->model.intermediate_dim : 0);
    dim("vocab_size", t.vocab, p ? p->model.vocab_size : 0);
    cmd << " " << arg("batch_size", std::to_string(w.batch));
    // The course's own spelling of the sequence length is the row's alias.
    cmd << " "
        << (t.cs336 ? TrainOptionTable::row("seq_len").aliases.front() + " " + std::to_string(w.seq)
                    : arg("seq_len", std::to_string(w.seq)));
    if (w.dtype == "bf16") {
        cmd << " " << (t.cs336 ? std::string("--use-mixed-precision") : arg("dtype", "bf16"));
    } else if (w.dtype != "fp32") {
        cmd << " " << arg("dtype", w.dtype);
    }
    if (t.attention != "eager") {
        cmd << " " << arg("attention", t.attention);
    }
    if (t.checkpointing != "none") {
        cmd << " " << arg("checkpointing", t.checkpointing);
    }
    if (t.optimizer != "adamw") {
        cmd << " " << arg("optimizer", t.optimizer);
    }
    if (t.cs336 || w.profile == "forward") {
        cmd << " " << arg("profile_type", w.profile);
    }
    const int64_t steps = w.steps > 0 ? w.steps : std::max<int64_t>(1, t.num_steps);
    cmd << " " << arg("num_steps", std::to_string(steps));
    std::string out = (p ? t.preset : std::string("custom")) + "-bs" + std::to_string(w.batch) +
                      (t.cs336 ? "-ctx" : "-seq") + std::to_string(w.seq) +
                      (w.dtype == "fp32" ? "" : "-" + w.dtype) +
                      (w.profile == "forward" ? "-forward" : "") + ".memscope";
    cmd << " --out " << out;
    return cmd.str();
}

std::string shapeOf(const Run& r, int64_t size) {
    if (r.batch <= 0 || r.seq <= 0 || r.hidden <= 0) {
        return "";
    }
    const int64_t B = r.batch, S = r.seq, D = r.hidden, H = std::max<int64_t>(1, r.heads);
    const int64_t kv = r.heads > 0 ? D / H * r.kv_heads : D;
    const bool fused = r.attention == "fused";
    // Under autocast matmul outputs are 2-byte; an fp32 run has only 4-byte tensors of these.
    std::vector<int> element_sizes{4};
    if (r.dtype != "fp32") {
        element_sizes.push_back(2);
    }
    struct Shape {
        const char* text;
        int64_t elements;
    };
    const Shape shapes[] = {
        {"B×S×D (hidden states, residual stream)", B * S * D},
        {"B×H×S×S (attention scores)", B * H * S * S},
        {"B×S×FFN (feed-forward intermediate)", B * S * r.inter},
        {"B×S×2·FFN (fused gate/up projection)", fused ? B * S * 2 * r.inter : 0},
        {"B×S×V (logits)", B * S * r.vocab},
        {"B×S×KV (grouped K or V)", kv != D ? B * S * kv : 0},
        {"B×S×(D+2·KV) (fused QKV)", fused ? B * S * (D + 2 * kv) : 0},
        {"V×D (embedding / LM head weight)", r.vocab * D},
        {"D×FFN (feed-forward weight)", D * r.inter},
        {"D×D (projection weight)", D * D},
    };
    std::string out;
    for (const auto& shape : shapes) {
        if (shape.elements <= 0) {
            continue;
        }
        for (const int bytes : element_sizes) {
            if (shape.elements * bytes == size) {
                out += (out.empty() ? "" : "; ") + std::string(shape.text) + " × " +
                       std::to_string(bytes) + " B" +
                       (bytes == 4 ? " (fp32)" : " (" + r.dtype + ")");
            }
        }
    }
    return out;
}

std::string generalizeModule(const std::string& module) {
    std::string out;
    for (size_t i = 0; i < module.size();) {
        if (std::isdigit(static_cast<unsigned char>(module[i])) && i > 0 && module[i - 1] == '.') {
            size_t j = i;
            while (j < module.size() && std::isdigit(static_cast<unsigned char>(module[j]))) {
                ++j;
            }
            if (j == module.size() || module[j] == '.') {
                out += '*';
                i = j;
                continue;
            }
        }
        out += module[i++];
    }
    return out;
}

}  // namespace memscope::report_detail
