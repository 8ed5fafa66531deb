#pragma once

#include "analysis/table_exporter.h"
#include "model/preset.h"
#include "run/train_options.h"
#include "studies/sweep_result.h"
#include "trace/trace.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// The report's runs and the helpers its chapters share (report.h, report.cpp,
// report_workshop.cpp, report_cs336.cpp): a run as the report reads it, the exercise tables'
// points, the command that records a missing run, megabytes as the exercises count them.
namespace memscope::report_detail {

// "--batch-size 8": a training option on a command line, spelled as the table spells it.
std::string arg(const char* key, const std::string& value);

using Table = TableExporter::Table;

std::string code(const std::string& s);

bool isCs336Preset(const std::string& name);

// ---- one run ------------------------------------------------------------------------------

struct Run {
    const Trace* trace = nullptr;
    std::string name;
    nlohmann::json s;  // stored summary over the figures computed from the events
    std::optional<TrainOptions> options;  // the recorded configuration, where there is one
    std::string preset, dtype, attention, checkpointing, profile, optimizer;
    int64_t batch = 0, seq = 0, hidden = 0, layers = 0, heads = 0, kv_heads = 0, inter = 0,
            vocab = 0, num_steps = 0;
    const Preset* known = nullptr;  // the preset, when the shape is exactly it
    bool cs336 = false;
    int64_t peak = 0;
    int64_t avg = 0;
    double samples_per_s = -1;  // -1: not stored (imported runs)

    bool forward() const { return profile == "forward"; }
    // Imported snapshots carry no configuration: they join no table that groups by shape.
    bool configured() const { return hidden > 0 && batch > 0 && seq > 0; }
    int64_t category(const char* name) const {
        const auto& c = s.value("bytes_by_category_at_peak", nlohmann::json::object());
        return c.value(name, int64_t(0));
    }
    // Memory that does not depend on the input: what the model and optimizer hold.
    int64_t staticAtPeak() const {
        return category("PARAMETER") + category("GRADIENT") + category("OPTIMIZER_STATE");
    }
    std::string modelLabel() const {
        if (known) {
            return known->name;
        }
        if (!configured()) {
            // A Python program's run: its script or module says what it is.
            const auto& config = trace->meta.config;
            if (config.is_object() && config.contains("program") && config["program"].is_object()) {
                const auto& program = config["program"];
                for (const char* key : {"script", "module"}) {
                    if (program.contains(key) && program[key].is_string()) {
                        std::string name = program[key].get<std::string>();
                        name = name.substr(name.find_last_of('/') + 1);
                        return "Python program " + name;
                    }
                }
            }
            return "unknown (" + trace->meta.source + ")";
        }
        std::string label = "custom (" + (preset.empty() ? "" : preset + " with ") + "hidden " +
                            std::to_string(hidden) + ", " + std::to_string(layers) +
                            (layers == 1 ? " layer, " : " layers, ") + std::to_string(heads) +
                            " heads";
        if (kv_heads != heads) {
            label += "/" + std::to_string(kv_heads) + " KV";
        }
        return label + ", FFN " + std::to_string(inter) + ", vocab " + std::to_string(vocab) + ")";
    }
    std::string modelKey() const {
        return std::to_string(hidden) + "/" + std::to_string(layers) + "/" + std::to_string(heads) +
               "/" + std::to_string(kv_heads) + "/" + std::to_string(inter) + "/" +
               std::to_string(vocab) + "/" + preset;
    }
    std::string variant() const {
        std::string v = dtype + ", " + attention + " attention";
        if (checkpointing != "none") {
            v += ", checkpointing " + checkpointing;
        }
        if (optimizer != "adamw") {
            v += ", " + optimizer;
        }
        return v;
    }
    std::string variantKey() const { return attention + "/" + checkpointing + "/" + optimizer; }
};

Run describe(const Trace& trace, const std::string& name);

// The runs with a recorded configuration as the points of a sweep, so that the exercise tables
// are SeedTables': the layout, the rules and the words `memscope-cli sweep` uses.
SweepResult asPoints(const std::vector<const Run*>& runs);

// ---- the command that records a missing run ---------------------------------------------

struct Want {
    int64_t batch = 0;
    int64_t seq = 0;
    std::string profile;  // "training" / "forward"
    std::string dtype;
    int64_t steps = 0;  // 0: the template's
};

std::string recordCommand(const Run& t, const Want& w);

// ---- sizes that match a tensor shape of the run ---------------------------------------------

std::string shapeOf(const Run& r, int64_t size);

// "TinyLlama.blocks.12.attention" -> "TinyLlama.blocks.*.attention": one row for all layers.
std::string generalizeModule(const std::string& module);

}  // namespace memscope::report_detail
