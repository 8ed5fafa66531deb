#include "report/report_writer.h"

#include "analysis/seed_tables.h"
#include "analysis/sweep_result.h"
#include "analysis/table_exporter.h"
#include "model/model_cost.h"
#include "model/preset.h"
#include "model/train_option_table.h"
#include "predict/fit_advice.h"
#include "predict/memory_model.h"
#include "report/growth_chapter.h"
#include "report/size_table_chapter.h"
#include "run/run_summary.h"
#include "run/text_format.h"
#include "trace/module_table.h"
#include "trace/oom_explanation.h"
#include "trace/recorded_options.h"
#include "trace/trace_summary.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <sstream>

namespace memscope {

namespace {

// "--batch-size 8": a training option on a command line, spelled as the table spells it.
std::string arg(const char* key, const std::string& value) {
    return TrainOptionTable::argument(key, value);
}

using Table = TableExporter::Table;

constexpr double kMiB = 1024.0 * 1024.0;

// Megabytes as the exercises count them (1024^2 bytes): one decimal, more for small values so
// that tiny runs do not read "0.00".
std::string mb(int64_t bytes) {
    const double v = double(bytes) / kMiB;
    const double a = std::fabs(v);
    return formatFixed(v, a >= 10 ? 1 : a >= 0.1 || a == 0 ? 2 : 4);
}

std::string code(const std::string& s) {
    return "`" + s + "`";
}

bool isCs336Preset(const std::string& name) {
    const Preset* preset = Preset::find(name);
    return preset != nullptr && preset->cs336;
}

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

// The runs with a recorded configuration as the points of a sweep, so that the exercise tables
// are SeedTables': the layout, the rules and the words `memscope-cli sweep` uses.
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

// ---- the command that records a missing run ---------------------------------------------

struct Want {
    int64_t batch = 0;
    int64_t seq = 0;
    std::string profile;  // "training" / "forward"
    std::string dtype;
    int64_t steps = 0;  // 0: the template's
};

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

// ---- sizes that match a tensor shape of the run ---------------------------------------------

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

// "TinyLlama.blocks.12.attention" -> "TinyLlama.blocks.*.attention": one row for all layers.
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

// ---- the report ---------------------------------------------------------------------------

class Report {
  public:
    Report(const std::vector<Trace>& traces, const std::vector<std::string>& names,
           const std::vector<std::map<std::string, std::string>>& sizes) {
        for (size_t i = 0; i < traces.size(); ++i) {
            const std::string name =
                i < names.size() && !names[i].empty() ? names[i] : "run " + std::to_string(i + 1);
            m_runs.push_back(describe(traces[i], name));
            // The user's own runs: their sizes as given, else a Python program's own flags.
            if (!m_runs.back().configured()) {
                auto given = i < sizes.size() ? sizes[i] : SizeTableChapter::Sizes();
                if (given.empty()) {
                    given = SizeTableChapter::sizesFromCommand(traces[i].meta.config);
                }
                m_sized.push_back({name, &traces[i], std::move(given)});
            }
        }
    }

    std::string write() {
        m_out << "# Memscope report\n\n";
        if (m_runs.empty()) {
            m_out << "No runs were given. Record one with `memscope-cli record --out run.memscope` "
                     "and pass it to `memscope-cli report`.\n";
            return m_out.str();
        }
        m_out << m_runs.size() << (m_runs.size() == 1 ? " run" : " runs")
              << ". Memory is the bytes of live tensors that LibTorch's allocators report "
                 "(Memscope's allocation hook), from model construction on. MB = 1024² bytes, as "
                 "PyTorch and CS336 count them.\n\n";
        runsSection();
        peakSection();
        modulesSection();
        growthSection();
        workshopSection();
        cs336Section();
        missingSection();
        return m_out.str();
    }

  private:
    void table(const Table& t) { m_out << TableExporter::toMarkdown(t) << "\n"; }

    // The exercise table `kind` over `runs`, as a sweep of them shows it, and what its columns
    // mean; false when none of the runs makes a row of it.
    bool seedTable(SeedTables::Kind kind, const std::vector<const Run*>& runs) {
        const Table t = SeedTables::make(kind, asPoints(runs), TableExporter::Units::Readable);
        if (t.rows.empty()) {
            return false;
        }
        table(t);
        const std::string note = SeedTables::note(kind);
        if (!note.empty()) {
            m_out << note << "\n\n";
        }
        return true;
    }

    void want(const std::string& why, const std::string& command) {
        const std::string line = why + ": `" + command + "`";
        if (m_missingSeen.insert(command).second) {
            m_missing.push_back(line);
        }
    }

    std::vector<const Run*> select(const std::function<bool(const Run&)>& keep) const {
        std::vector<const Run*> out;
        for (const auto& r : m_runs) {
            if (keep(r)) {
                out.push_back(&r);
            }
        }
        return out;
    }

    static std::string signedPercent(double change) {
        return (change >= 0 ? "+" : "") + formatFixed(change, 1) + "%";
    }

    static std::string samples(const Run& r) {
        return r.samples_per_s >= 0 ? formatFixed(r.samples_per_s, 1) : "—";
    }

    // ---- runs and peaks -------------------------------------------------------------------

    void runsSection() {
        m_out << "## Runs\n\n";
        Table t;
        t.columns = {"Run",           "Model",   "Batch", "Seq",       "Dtype",    "Attention",
                     "Checkpointing", "Profile", "Steps", "Peak (MB)", "Avg (MB)", "Samples/s"};
        t.numeric = {false, false, true, true, false, false, false, false, true, true, true, true};
        for (const auto& r : m_runs) {
            const int64_t steps = r.s.value("steps", r.num_steps);
            if (!r.configured()) {
                t.rows.push_back({r.name, r.modelLabel(), "—", "—", "—", "—", "—", "—", "—",
                                  mb(r.peak), r.avg > 0 ? mb(r.avg) : "—", samples(r)});
                continue;
            }
            t.rows.push_back({r.name, r.modelLabel(), std::to_string(r.batch),
                              std::to_string(r.seq), r.dtype, r.attention, r.checkpointing,
                              r.profile, std::to_string(steps), mb(r.peak), mb(r.avg), samples(r)});
        }
        table(t);
        for (const auto& r : m_runs) {
            if (r.s.contains("oom") && r.s["oom"].is_object()) {
                const auto& o = r.s["oom"];
                m_out << "- **" << r.name << " ran out of memory** in step " << o.value("step", 0)
                      << " (" << o.value("phase", std::string())
                      << "): " << mb(o.value("requested_bytes", int64_t(0)))
                      << " MB requested with " << mb(o.value("free_bytes", int64_t(0)))
                      << " MB free of " << mb(o.value("capacity_bytes", int64_t(0))) << " MB, in "
                      << code(o.value("module", std::string())) << " / "
                      << code(o.value("op", std::string())) << ". Its figures cover the steps "
                      << "before the error.\n";
                oomExplanation(r);
            }
            if (r.trace->meta.dropped_events > 0) {
                m_out << "- " << r.name << " kept only its newest " << r.trace->meta.max_events
                      << " events (" << r.trace->meta.dropped_events
                      << " dropped): figures from events cover the kept part.\n";
            }
        }
        m_out << "\n";
    }

    // Under a run's "ran out of memory" bullet: capacity or fragmentation, the categories that
    // filled the device and the modules that held it (OomExplanation, issue 41).
    void oomExplanation(const Run& r) {
        const auto x = OomExplanation::fromJson(r.s.value("oom_explanation", nlohmann::json()));
        if (!x) {
            return;
        }
        m_out << "  - " << x->verdictSentence() << "\n";
        if (!x->categories().empty()) {
            m_out << "  - Filled by:";
            for (size_t i = 0; i < x->categories().size(); ++i) {
                m_out << (i == 0 ? " " : ", ") << x->categories()[i].first << " "
                      << mb(x->categories()[i].second) << " MB";
            }
            m_out << ".\n";
        }
        // The model's direct sub-modules (or the top rows when none has any), largest first.
        std::vector<OomExplanation::ModuleRow> rows;
        for (int depth : {1, 0}) {
            for (const auto& m : x->modules()) {
                if (m.depth == depth && !m.path.empty()) {
                    rows.push_back(m);
                }
            }
            if (!rows.empty()) {
                break;
            }
        }
        std::stable_sort(rows.begin(), rows.end(),
                         [](const auto& a, const auto& b) { return a.held > b.held; });
        if (!rows.empty()) {
            m_out << "  - Modules holding it (of " << mb(x->aliveBytes()) << " MB alive):";
            for (size_t i = 0; i < rows.size() && i < 4; ++i) {
                m_out << (i == 0 ? " " : ", ") << code(rows[i].path) << " " << mb(rows[i].held)
                      << " MB";
            }
            m_out << (rows.size() > 4 ? ", ...\n" : ".\n");
        }
        // What to change so it fits (the course's question after an out-of-memory): the
        // planner's single changes for the run's configuration (FitAdvice), where it knows it.
        const auto options = recordedOptions(r.trace->meta);
        if (!options || x->capacity() <= 0) {
            return;
        }
        try {
            const auto advice = FitAdvice::suggest(*options, x->capacity());
            m_out << "  - What fits " << mb(x->capacity()) << " MB, one change each (the planner):";
            for (size_t i = 0; i < advice.size() && i < 4; ++i) {
                m_out << (i == 0 ? " " : "; ") << code(advice[i].change) << " " << advice[i].summary
                      << ", " << mb(advice[i].predicted_peak) << " MB";
            }
            m_out << (advice.empty() ? " no single change the planner models.\n"
                                     : ". `memscope-cli record ... --check-advice` reruns the "
                                       "first that needs one process and measures it.\n");
        } catch (const std::exception&) {
            // a configuration the planner does not model
        }
    }

    void peakSection() {
        m_out << "## Where and when memory peaks\n\n";
        Table t;
        t.columns = {"Run",
                     "Peak (MB)",
                     "Peak at",
                     "Forward peak (MB)",
                     "Backward peak (MB)",
                     "Optimizer peak (MB)",
                     "Peak / Avg"};
        t.numeric = {false, true, false, true, true, true, true};
        for (const auto& r : m_runs) {
            const auto phases = r.s.value("peak_by_phase", nlohmann::json::object());
            const auto phase_mb = [&](const char* phase) {
                const int64_t v = phases.value(phase, int64_t(0));
                return v > 0 ? mb(v) : std::string("—");
            };
            const bool inferred = r.trace->meta.categories_inferred;
            const std::string at = r.s.contains("peak_step") && (r.configured() || inferred)
                                       ? "step " + std::to_string(r.s.value("peak_step", 0)) +
                                             ", " + r.s.value("peak_phase", std::string()) +
                                             (inferred ? " (inferred)" : "")
                                       : "—";
            t.rows.push_back(
                {r.name, mb(r.peak), at, phase_mb("forward"), phase_mb("backward"),
                 phase_mb("optimizer"),
                 r.avg > 0 ? formatFixed(double(r.peak) / double(r.avg), 2) + "x" : "—"});
        }
        table(t);

        // What is live at the peak, by category; categories no run has are left out.
        static const std::pair<const char*, const char*> kCategories[] = {
            {"PARAMETER", "Parameters"},
            {"GRADIENT", "Gradients"},
            {"OPTIMIZER_STATE", "Optimizer state"},
            {"ACTIVATION", "Activations"},
            {"TEMPORARY", "Temporaries"},
            {"INPUT", "Input"},
            {"AUTOGRAD_DETAIL", "Autograd detail"},
            {"COMMUNICATION", "Communication"},
            {"BEFORE_RECORDING", "Before recording"},
            {"UNKNOWN", "Unknown"}};
        Table c;
        c.columns = {"Run", "Live at peak (MB)"};
        c.numeric = {false, true};
        std::vector<const char*> used;
        for (const auto& [key, label] : kCategories) {
            bool any = false;
            for (const auto& r : m_runs) {
                any = any || r.category(key) != 0;
            }
            if (any) {
                used.push_back(key);
                c.columns.push_back(label);
                c.numeric.push_back(true);
            }
        }
        for (const auto& r : m_runs) {
            std::vector<std::string> row{r.name,
                                         mb(r.s.value("peak_allocated_bytes_recorded", r.peak))};
            for (const char* key : used) {
                row.push_back(mb(r.category(key)));
            }
            c.rows.push_back(std::move(row));
        }
        m_out << "What is live at the peak (MB), by why it exists:\n\n";
        table(c);
        bool any_inferred = false;
        for (const auto& r : m_runs) {
            any_inferred = any_inferred || r.trace->meta.categories_inferred;
        }
        if (any_inferred) {
            m_out << "The phases and categories of imported snapshots are inferred from their "
                     "frames and annotations (the trainer's rules over those phases), not "
                     "recorded; \"Before recording\" is what the snapshot held before its trace "
                     "began.\n\n";
        }
    }

    // ---- modules --------------------------------------------------------------------------

    // Which modules hold the memory at the peak (trace/module_table.h), for the run with the
    // highest peak among those whose stacks name modules; for a run of the built-in trainer, the
    // bytes each block saved for backward beside the planner's per-layer figure (MemoryModel
    // with one layer fewer: what one more layer adds to the activations at the end of forward).
    void growthSection() {
        std::vector<std::pair<std::string, const Trace*>> runs;
        for (const auto& r : m_runs) {
            runs.emplace_back(r.name, r.trace);
        }
        m_out << GrowthChapter::markdown(runs);
    }

    void modulesSection() {
        const Run* best = nullptr;
        for (const auto& r : m_runs) {
            if (ModuleTable::available(*r.trace) && (best == nullptr || r.peak > best->peak)) {
                best = &r;
            }
        }
        if (best == nullptr) {
            return;
        }
        const ModuleTable modules = ModuleTable::compute(*best->trace);
        m_out << "## Which modules hold the memory\n\n";
        m_out << best->name << " at its peak (step " << modules.step()
              << "), module by module: what each module holds with its sub-modules. Parameters, "
                 "gradients and optimizer state belong to the module of their parameter; "
                 "activations and temporaries to the module whose forward made them; backward "
                 "buffers to the module whose backward made them. The rows of the top modules "
                 "and \"(no module)\" sum to the "
              << mb(modules.aliveBytes()) << " MB alive.\n\n";
        Table t;
        t.columns = {"Module",      "Held (MB)",   "Parameters", "Gradients", "Optimizer state",
                     "Activations", "Temporaries", "Backward",   "Other",     "Saved for backward"};
        t.numeric = {false, true, true, true, true, true, true, true, true, true};
        size_t shown = 0, hidden = 0;
        for (const auto& row : modules.rows()) {
            if (row.depth > 2 || row.held() == 0 || shown >= 24) {
                hidden += row.depth <= 2 && row.held() > 0 ? 1 : 0;
                continue;
            }
            ++shown;
            std::string name;
            for (int d = 0; d < row.depth; ++d) {
                name += "\u00a0\u00a0";
            }
            name += row.depth == 0 && !row.path.empty() ? row.path : row.name;
            std::vector<std::string> cells{name, mb(row.held())};
            for (int c = 0; c < ModuleTable::kColumnCount; ++c) {
                cells.push_back(row.total[size_t(c)] ? mb(row.total[size_t(c)]) : "—");
            }
            cells.push_back(row.saved_for_backward ? mb(row.saved_for_backward) : "—");
            t.rows.push_back(std::move(cells));
        }
        table(t);
        const auto dominant = modules.dominantRows(3);
        if (!dominant.empty() && modules.aliveBytes() > 0) {
            m_out << "Holding the most: ";
            for (size_t i = 0; i < dominant.size(); ++i) {
                const auto& row = modules.rows()[size_t(dominant[i])];
                int largest = 0;
                for (int c = 1; c < ModuleTable::kColumnCount; ++c) {
                    if (row.total[size_t(c)] > row.total[size_t(largest)]) {
                        largest = c;
                    }
                }
                m_out << (i ? "; " : "") << code(row.path) << " " << mb(row.held()) << " MB ("
                      << formatFixed(100.0 * double(row.held()) / double(modules.aliveBytes()), 1)
                      << "%, mostly " << ModuleTable::columnName(largest) << ")";
            }
            m_out << ".";
        }
        if (hidden > 0) {
            m_out << " Deeper modules and " << hidden << " more rows: `memscope-cli info RUN "
                  << "--modules`.";
        }
        m_out << "\n\n";
        savedPerBlock(*best, modules);
    }

    // The bytes each Tiny LLaMA block saved for backward beside the planner's per-layer figure.
    void savedPerBlock(const Run& r, const ModuleTable& modules) {
        const auto options = recordedOptions(r.trace->meta);
        if (!options || !r.configured() || r.forward() || options->model.n_layers < 2) {
            return;
        }
        int64_t per_layer = 0;
        try {
            TrainOptions fewer = *options;
            fewer.model.n_layers -= 1;
            const auto all = MemoryModel::predict(*options);
            const auto less = MemoryModel::predict(fewer);
            const auto component = size_t(MemoryComponent::Activations);
            per_layer = all.first_step.at_end_of_forward[component] -
                        less.first_step.at_end_of_forward[component];
        } catch (const std::exception&) {
            return;  // a configuration the planner does not model
        }
        const std::string prefix = std::string("TinyLlama.blocks.");
        std::vector<std::string> cells;
        int agree = 0, blocks = 0;
        for (const auto& row : modules.rows()) {
            if (row.path.compare(0, prefix.size(), prefix) != 0 ||
                row.path.find('.', prefix.size()) != std::string::npos) {
                continue;
            }
            ++blocks;
            agree += row.saved_for_backward == per_layer ? 1 : 0;
            cells.push_back(code(row.path.substr(10)) + " " +
                            withThousands(row.saved_for_backward));
        }
        if (blocks == 0) {
            return;
        }
        m_out << "Bytes each block saved for backward in step " << modules.step() << ": "
              << join(cells, ", ")
              << ". The planner's activations per layer: " << withThousands(per_layer) << " bytes; "
              << agree << " of " << blocks << " blocks agree to the byte.\n\n";
    }

    static std::string join(const std::vector<std::string>& parts, const std::string& sep) {
        std::string out;
        for (size_t i = 0; i < parts.size(); ++i) {
            out += (i ? sep : "") + parts[i];
        }
        return out;
    }

    // ---- workshop exercise 2 --------------------------------------------------------------

    void workshopSection() {
        m_out << "## Workshop exercise 2: memory analysis\n\n";
        const auto runs = select([](const Run& r) { return !r.cs336; });
        if (runs.empty()) {
            m_out << "No workshop runs among these (Tiny LLaMA presets `workshop-default`, "
                     "`study-*` or custom shapes).\n\n";
            Run t;
            t.preset = "workshop-default";
            t.known = Preset::find(t.preset);
            fillFromPreset(t);
            for (const int64_t b : {4, 8, 16}) {
                want("exercise 2 step 1, batch " + std::to_string(b),
                     recordCommand(t, {b, 128, "training", "fp32", 15}));
            }
            return;
        }
        batchScaling(runs);
        spikes(runs);
        seqScaling(runs);
        topOperators(runs);
        memoryQuestions(runs);
    }

    // The exercise's questions 2, 3 and 5 (where is peak memory consumed, the primary target,
    // the optimization with the biggest benefit), answered for the training run with the highest
    // peak: from its Modules view at the peak (trace/module_table.h) and the planner's peak with
    // each optimization applied alone (MemoryModel, exact for the CPU trainer).
    void memoryQuestions(const std::vector<const Run*>& runs) {
        const Run* r = nullptr;
        for (const Run* c : runs) {
            if (c->configured() && !c->forward() && ModuleTable::available(*c->trace) &&
                (r == nullptr || c->peak > r->peak)) {
                r = c;
            }
        }
        const auto options = r ? recordedOptions(r->trace->meta) : std::nullopt;
        if (!options) {
            return;
        }
        const ModuleTable modules = ModuleTable::compute(*r->trace);
        const auto& alive = modules.aliveByColumn();
        const int64_t total = std::max<int64_t>(1, modules.aliveBytes());
        auto share = [&](int64_t v) { return formatFixed(100.0 * double(v) / double(total), 1); };
        const int64_t state = alive[ModuleTable::Parameters] + alive[ModuleTable::Gradients] +
                              alive[ModuleTable::OptimizerState];
        const int64_t activations = alive[ModuleTable::Activations];
        int64_t attention_core = 0;  // what the attention cores' own tensors hold
        for (const auto& row : modules.rows()) {
            if (row.name == "core" && row.path.find(".attention.core") != std::string::npos) {
                attention_core += row.held();
            }
        }
        m_out << "### Questions: where the memory goes and what to change\n\n"
              << "From " << r->name << "'s Modules view at its peak (step " << modules.step()
              << ", " << r->s.value("peak_phase", std::string("?")) << "):\n\n";
        m_out << "- **Where is peak memory consumed?** At the "
              << r->s.value("peak_phase", std::string("?")) << " of step " << modules.step()
              << ": activations saved for backward " << mb(activations) << " MB ("
              << share(activations) << "%), parameters, gradients and optimizer state " << mb(state)
              << " MB (" << share(state) << "%), backward buffers "
              << mb(alive[ModuleTable::Backward]) << " MB.\n";
        const auto dominant = modules.dominantRows(1);
        if (!dominant.empty()) {
            const auto& row = modules.rows()[size_t(dominant[0])];
            m_out << "- **Which modules hold it?** " << code(row.path) << " holds "
                  << mb(row.held()) << " MB (" << share(row.held()) << "%); the attention cores ("
                  << "scores, softmax) " << mb(attention_core) << " MB (" << share(attention_core)
                  << "%).\n";
        }
        struct Option {
            std::string name;
            std::function<void(TrainOptions&)> apply;
        };
        const std::vector<Option> choices = {
            {"Flash-style attention (`" + arg("attention", "memory-efficient") + "`)",
             [](TrainOptions& o) { o.attention = AttentionKind::MemoryEfficient; }},
            {"Gradient checkpointing (`" + arg("checkpointing", "per-block") + "`)",
             [](TrainOptions& o) { o.checkpointing = Checkpointing::PerBlock; }},
            {"Mixed precision (`" + arg("dtype", "bf16") + "`)",
             [](TrainOptions& o) { o.dtype = Dtype::BFloat16; }}};
        try {
            const int64_t base = MemoryModel::predict(*options).peak();
            m_out << "- **What would provide the biggest benefit?** The planner's peak with each "
                     "change alone, against "
                  << mb(base) << " MB as recorded:";
            std::string best;
            int64_t best_peak = base;
            for (const auto& c : choices) {
                TrainOptions o = *options;
                c.apply(o);
                const int64_t peak = MemoryModel::predict(o).peak();
                m_out << " " << c.name << " " << mb(peak) << " MB ("
                      << formatFixed(100.0 * double(peak - base) / double(base), 1) << "%);";
                if (peak < best_peak) {
                    best_peak = peak;
                    best = c.name;
                }
            }
            m_out << (best.empty() ? " none of them lowers the peak"
                                   : " the largest saving: " + best)
                  << ". `memscope-cli record " << arg("device_memory_limit", "SIZE")
                  << " --check-advice` checks "
                     "the advice for a limit by running it.\n\n";
        } catch (const std::exception&) {
            m_out << "\n";  // a configuration the planner does not model
        }
    }

    static void fillFromPreset(Run& t) {
        const Preset* p = Preset::find(t.preset);
        if (!p) {
            return;
        }
        t.hidden = p->model.hidden_dim;
        t.layers = p->model.n_layers;
        t.heads = p->model.n_heads;
        t.kv_heads = p->model.n_kv_heads;
        t.inter = p->model.intermediate_dim;
        t.vocab = p->model.vocab_size;
        t.batch = p->batch_size;
        t.seq = p->seq_len;
        t.dtype = "fp32";
        t.attention = "eager";
        t.checkpointing = "none";
        t.optimizer = "adamw";
        t.profile = "training";
        t.cs336 = isCs336Preset(t.preset);
    }

    static std::string groupTitle(const Run& r, bool with_seq, bool with_batch) {
        if (!r.configured()) {
            return r.modelLabel();
        }
        std::string title = r.modelLabel();
        if (with_batch) {
            title += ", batch " + std::to_string(r.batch);
        }
        if (with_seq) {
            title += (r.cs336 ? ", context " : ", seq ") + std::to_string(r.seq);
        }
        return title + ", " + r.variant() + ", " + r.profile;
    }

    void batchScaling(const std::vector<const Run*>& runs) {
        m_out << "### Step 1: memory by batch size\n\n";
        std::vector<const Run*> training;
        std::map<std::string, std::vector<const Run*>> groups;
        for (const Run* r : runs) {
            if (!r->forward() && r->configured()) {
                training.push_back(r);
                groups[r->modelKey() + "|" + std::to_string(r->seq) + "|" + r->dtype + "|" +
                       r->variantKey()]
                    .push_back(r);
            }
        }
        if (!training.empty()) {
            seedTable(SeedTables::Kind::Seed000Step1, training);
        }
        bool workshop_group = false;
        bool said = false;
        for (auto& [key, group] : groups) {
            std::stable_sort(group.begin(), group.end(),
                             [](const Run* a, const Run* b) { return a->batch < b->batch; });
            const Run& first = *group.front();
            const Run& last = *group.back();
            if (last.batch > first.batch && first.peak > 0) {
                said = true;
                const double per_sample =
                    double(last.peak - first.peak) / double(last.batch - first.batch);
                const double base = double(first.peak) - per_sample * double(first.batch);
                m_out << "- **"
                      << SeedTables::setting(SeedTables::Kind::Seed000Step1, *first.options)
                      << "**: from batch " << first.batch << " to " << last.batch << " ("
                      << formatFixed(double(last.batch) / double(first.batch), 1)
                      << "x) the peak grows "
                      << formatFixed(double(last.peak) / double(first.peak), 2) << "x: about "
                      << mb(int64_t(base)) << " MB that do not depend on the batch "
                      << "plus " << mb(int64_t(per_sample)) << " MB per sample";
                if (first.samples_per_s > 0 && last.samples_per_s > 0) {
                    m_out << "; throughput grows "
                          << formatFixed(last.samples_per_s / first.samples_per_s, 2) << "x";
                }
                m_out << ".\n";
            }
            if (first.known && first.preset == "workshop-default" && first.seq == 128 &&
                first.dtype == "fp32" && first.variantKey() == "eager/none/adamw") {
                workshop_group = true;
                for (const int64_t b : {4, 8, 16}) {
                    if (std::none_of(group.begin(), group.end(),
                                     [b](const Run* r) { return r->batch == b; })) {
                        want("exercise 2 step 1, batch " + std::to_string(b),
                             recordCommand(first, {b, 128, "training", "fp32", 15}));
                    }
                }
            }
        }
        if (said) {
            m_out << "\n";
        }
        if (groups.empty()) {
            m_out << "No training runs with a recorded configuration among the workshop runs.\n\n";
        }
        if (!workshop_group) {
            Run t;
            t.preset = "workshop-default";
            fillFromPreset(t);
            t.known = Preset::find(t.preset);
            m_out << "The exercise's table is workshop-default at sequence length 128, fp32, "
                     "batch 4, 8 and 16: see the runs to add below.\n\n";
            for (const int64_t b : {4, 8, 16}) {
                want("exercise 2 step 1, batch " + std::to_string(b),
                     recordCommand(t, {b, 128, "training", "fp32", 15}));
            }
        }
    }

    void spikes(const std::vector<const Run*>& runs) {
        m_out << "### Step 2: what causes the largest memory spikes\n\n"
              << "The peak of each run, and what is live there, is in \"Where and when memory "
                 "peaks\" above. The largest single allocations:\n\n";
        for (const Run* r : runs) {
            largestAllocations(*r, 6);
        }
    }

    void seqScaling(const std::vector<const Run*>& runs) {
        m_out << "### Step 3: sequence length scaling\n\n";
        std::map<std::string, std::vector<const Run*>> groups;
        std::vector<const Run*> training;
        for (const Run* r : runs) {
            if (!r->forward() && r->configured()) {
                training.push_back(r);
                groups[r->modelKey() + "|" + r->dtype + "|" + r->variantKey()].push_back(r);
            }
        }
        const bool shown = seedTable(SeedTables::Kind::Seed000Step3, training);
        bool workshop_group = false;
        for (auto& [key, group] : groups) {
            const Run& first = *group.front();
            const bool is_workshop = first.known && first.preset == "workshop-default" &&
                                     first.dtype == "fp32" &&
                                     first.variantKey() == "eager/none/adamw";
            workshop_group = workshop_group || is_workshop;
            if (is_workshop) {
                const std::pair<int64_t, int64_t> wanted[] = {
                    {64, 8}, {128, 8}, {256, 8}, {512, 4}};
                for (const auto& [s, b] : wanted) {
                    if (std::none_of(group.begin(), group.end(), [s = s, b = b](const Run* r) {
                            return r->seq == s && r->batch == b;
                        })) {
                        want("exercise 2 step 3, sequence " + std::to_string(s) + " batch " +
                                 std::to_string(b),
                             recordCommand(first, {b, s, "training", "fp32", s == 512 ? 5 : 10}));
                    }
                }
            }
        }
        if (!shown) {
            m_out << "No two training runs of one model differ only in sequence length.\n\n";
        }
        if (!workshop_group) {
            Run t;
            t.preset = "workshop-default";
            fillFromPreset(t);
            t.known = Preset::find(t.preset);
            const std::pair<int64_t, int64_t> wanted[] = {{64, 8}, {128, 8}, {256, 8}, {512, 4}};
            for (const auto& [s, b] : wanted) {
                want("exercise 2 step 3, sequence " + std::to_string(s) + " batch " +
                         std::to_string(b),
                     recordCommand(t, {b, s, "training", "fp32", s == 512 ? 5 : 10}));
            }
        }
    }

    void topOperators(const std::vector<const Run*>& runs) {
        m_out << "### Step 4: top memory-consuming operations\n\n"
              << "Bytes each operator allocated itself (its child ops excluded, so nothing is "
                 "counted twice), summed over every recorded step.\n\n";
        for (const Run* r : runs) {
            std::vector<const OperatorStat*> ops;
            for (const auto& o : r->trace->operators) {
                if (!o.is_module && o.self_bytes_allocated > 0) {
                    ops.push_back(&o);
                }
            }
            std::sort(ops.begin(), ops.end(), [](const OperatorStat* a, const OperatorStat* b) {
                return a->self_bytes_allocated > b->self_bytes_allocated;
            });
            const int64_t steps = r->s.value("steps_run", r->s.value("steps", r->num_steps));
            m_out << "**" << r->name << "** (" << groupTitle(*r, true, true);
            if (steps > 0) {
                m_out << ", " << steps << (steps == 1 ? " step" : " steps");
            }
            m_out << "):\n\n";
            if (ops.empty()) {
                m_out << "No operator statistics in this run (imported runs have none).\n\n";
                continue;
            }
            for (size_t i = 0; i < std::min<size_t>(5, ops.size()); ++i) {
                const auto* o = ops[i];
                m_out << i + 1 << ". " << code(o->name) << ": " << mb(o->self_bytes_allocated)
                      << " MB in " << withThousands(o->calls) << " calls (largest "
                      << mb(o->largest_allocation) << " MB)\n";
            }
            m_out << "\n";
        }
    }

    // ---- largest allocations --------------------------------------------------------------

    void largestAllocations(const Run& r, size_t groups_shown) {
        const Trace& trace = *r.trace;
        const auto& ev = trace.events;
        struct Group {
            int64_t size = 0;
            std::string category, phase, op, module;
            int64_t count = 0;
            uint32_t stack = 0;  // the first one's
        };
        std::map<std::tuple<int64_t, std::string, std::string, std::string, std::string>, Group>
            groups;
        int64_t init_count = 0;
        int64_t init_largest = 0;
        for (const auto& a : trace.allocations()) {
            const bool recorded = a.alloc_event >= 0;
            const size_t e = static_cast<size_t>(recorded ? a.alloc_event : a.free_event);
            const uint32_t stack = ev.stack[e];
            // Building the model (its parameters) is not what a memory timeline of a step asks
            // about, and in PyTorch it usually happens before recording starts.
            if (recorded && static_cast<Phase>(ev.phase[e]) == Phase::Init) {
                ++init_count;
                init_largest = std::max(init_largest, a.size);
                continue;
            }
            const bool before = !recorded || ev.step[e] < 0;  // an import's blocks from before
            const auto p = static_cast<Phase>(ev.phase[e]);
            const std::string phase = before ? "before recording"
                                      : trace.meta.categories_inferred && p == Phase::Other
                                          ? "unknown"
                                          : toString(p);
            // Imports have no modules: their innermost user frame (or autograd node) says where,
            // and the operator their code called says more than the aten::empty inside it.
            const bool imported = trace.meta.categories_inferred;
            const std::string op = imported ? TraceSummary::calledOperatorOf(trace.stacks, stack)
                                            : TraceSummary::operatorOf(trace.stacks, stack);
            std::string module = generalizeModule(TraceSummary::moduleOf(trace.stacks, stack));
            if (module.empty() && imported) {
                module = TraceSummary::userFrameOrNodeOf(trace.stacks, stack);
            }
            auto [it, inserted] = groups.try_emplace(
                {-a.size, toString(a.category), phase, op, module});  // largest first
            if (inserted) {
                it->second = {a.size, toString(a.category), phase, op, module, 0, stack};
            }
            ++it->second.count;
        }
        m_out << "**" << r.name << "** (" << groupTitle(r, true, true) << "):\n\n";
        if (groups.empty()) {
            m_out << "No allocations recorded after the model was built.\n\n";
            return;
        }
        Table t;
        t.columns = {"Size (MB)", "Count", "Category", "Phase", "Op", "Module", "Size matches"};
        if (trace.meta.categories_inferred) {
            t.columns[2] = "Category (inferred)";
            t.columns[5] = "Where";
        }
        t.numeric = {true, true, false, false, false, false, false};
        size_t n = 0;
        for (const auto& [key, g] : groups) {
            if (n++ >= groups_shown) {
                break;
            }
            t.rows.push_back({mb(g.size), std::to_string(g.count), g.category, g.phase,
                              g.op.empty() ? "—" : g.op, g.module.empty() ? "—" : g.module,
                              shapeOf(r, g.size)});
        }
        table(t);
        const Group& top = groups.begin()->second;
        m_out << "The largest allocations are " << mb(top.size) << " MB ("
              << withThousands(top.size) << " bytes";
        const std::string shape = shapeOf(r, top.size);
        if (!shape.empty()) {
            m_out << " = " << shape;
        }
        m_out << "), made by " << (top.op.empty() ? "an unnamed op" : code(top.op))
              << (top.module.empty() ? " outside any module" : " in " + code(top.module))
              << " during " << top.phase
              << "; stack of the first: " << code(trace.stacks.describe(top.stack)) << ".";
        if (init_count > 0) {
            m_out << " Left out: the " << withThousands(init_count)
                  << " allocations made while building the model (largest " << mb(init_largest)
                  << " MB).";
        }
        m_out << "\n\n";
    }

    // ---- CS336 ----------------------------------------------------------------------------

    void cs336Section() {
        m_out << "## CS336 assignment 2: memory profiling\n\n";
        const auto runs = select([](const Run& r) { return r.cs336; });
        contextLengths();
        mixedPrecision(runs);
        residualStream();
        largestForCs336(runs);
    }

    void contextLengths() {
        m_out << "### (b) Peak memory by context length\n\n";
        // CS336 runs, and the runs of any other setting that has a forward-only run to set
        // against training.
        const auto setting = [](const Run& r) {
            return r.modelKey() + "|" + std::to_string(r.batch) + "|" + r.dtype + "|" +
                   r.variantKey();
        };
        std::set<std::string> with_forward;
        for (const auto& r : m_runs) {
            if (r.configured() && r.forward()) {
                with_forward.insert(setting(r));
            }
        }
        std::map<std::string, std::vector<const Run*>> groups;
        std::vector<const Run*> shown;
        for (const auto& r : m_runs) {
            if (r.configured() && (r.cs336 || with_forward.count(setting(r)))) {
                groups[setting(r)].push_back(&r);
                shown.push_back(&r);
            }
        }
        const std::string yours = SizeTableChapter::markdown(m_sized);
        m_out << yours;
        if (groups.empty() && !yours.empty()) {
            return;  // the user's own runs answer it
        }
        if (groups.empty()) {
            m_out << "No CS336 runs (`--model-size`), no forward-only runs and no runs with "
                     "their sizes among these (`report RUN --sizes RUN:s=128,b=4` gives a "
                     "snapshot's).\n\n";
            Run t;
            t.preset = "2.7B";
            fillFromPreset(t);
            t.known = Preset::find(t.preset);
            t.num_steps = 1;
            for (const int64_t ctx : {128, 256, 512}) {
                for (const char* profile : {"forward", "training"}) {
                    want(
                        std::string("CS336 (b), ") + profile + " at context " + std::to_string(ctx),
                        recordCommand(t, {4, ctx, profile, "fp32", 1}));
                }
            }
            return;
        }
        seedTable(SeedTables::Kind::Seed003b, shown);
        // The runs still to make: each context length of the group, and the assignment's for
        // a CS336 model, in both profiles.
        for (auto& [key, group] : groups) {
            const Run& first = *group.front();
            std::set<int64_t> contexts;
            for (const Run* r : group) {
                contexts.insert(r->seq);
            }
            if (first.cs336 && first.known) {
                contexts.insert({128, 256, 512});  // the assignment's context lengths
            }
            for (const int64_t ctx : contexts) {
                for (const bool forward : {true, false}) {
                    if (std::none_of(group.begin(), group.end(), [ctx, forward](const Run* r) {
                            return r->seq == ctx && r->forward() == forward;
                        })) {
                        want(std::string("CS336 (b), ") +
                                 (forward ? "a forward-only" : "a training") + " run at context " +
                                 std::to_string(ctx),
                             recordCommand(first,
                                           {first.batch, ctx, forward ? "forward" : "training",
                                            first.dtype, 0}));
                    }
                }
            }
        }
        m_out << "A forward pass keeps no activations for backward and has no gradients or "
                 "optimizer state; a training step's peak adds them. The table shows each run's "
                 "overall peak; AdamW creates its state during step 1, so step 1 and the later "
                 "steps can peak differently (`memscope-cli info` prints both).\n\n";
    }

    void mixedPrecision(const std::vector<const Run*>& cs336_runs) {
        m_out << "### (c) Mixed precision\n\n";
        std::map<std::string, std::map<std::string, const Run*>> pairs;  // key -> dtype -> run
        for (const auto& r : m_runs) {
            if (r.configured()) {
                pairs[r.modelKey() + "|" + std::to_string(r.batch) + "|" + std::to_string(r.seq) +
                      "|" + r.variantKey() + "|" + r.profile][r.dtype] = &r;
            }
        }
        Table t;
        t.columns = {"Model",
                     "Batch",
                     "Context",
                     "Profile",
                     "FP32 peak (MB)",
                     "BF16 peak (MB)",
                     "Change",
                     "Peak at (FP32 / BF16)",
                     "Forward peak (MB, FP32 → BF16)"};
        t.numeric = {false, true, true, false, true, true, true, false, false};
        double lo = 1e9, hi = -1e9;
        std::vector<const Run*> paired;
        for (const auto& [key, by_dtype] : pairs) {
            auto f = by_dtype.find("fp32");
            auto b = by_dtype.find("bf16");
            if (f == by_dtype.end() || b == by_dtype.end()) {
                continue;
            }
            const Run& a = *f->second;
            const Run& c = *b->second;
            paired.push_back(&a);
            paired.push_back(&c);
            const double change = a.peak > 0 ? 100.0 * double(c.peak - a.peak) / double(a.peak) : 0;
            lo = std::min(lo, change);
            hi = std::max(hi, change);
            const auto forward_peak = [](const Run& r) {
                return r.s.value("peak_by_phase", nlohmann::json::object())
                    .value("forward", int64_t(0));
            };
            t.rows.push_back({a.modelLabel(), std::to_string(a.batch), std::to_string(a.seq),
                              a.profile, mb(a.peak), mb(c.peak), signedPercent(change),
                              a.s.value("peak_phase", std::string("—")) + " / " +
                                  c.s.value("peak_phase", std::string("—")),
                              mb(forward_peak(a)) + " → " + mb(forward_peak(c))});
        }
        if (!t.rows.empty()) {
            // The exercise's table ((b) in both precisions) over every run of a model, batch
            // and variant that has a pair, then each pair side by side.
            std::set<std::string> models;
            for (const Run* r : paired) {
                models.insert(r->modelKey() + "|" + std::to_string(r->batch) + "|" +
                              r->variantKey());
            }
            std::vector<const Run*> shown;
            for (const auto& r : m_runs) {
                if (r.configured() && models.count(r.modelKey() + "|" + std::to_string(r.batch) +
                                                   "|" + r.variantKey())) {
                    shown.push_back(&r);
                }
            }
            seedTable(SeedTables::Kind::Seed003c, shown);
            m_out << "Each pair of runs that differ only in precision:\n\n";
            table(t);
            m_out << "Here mixed precision changes the peak by " << signedPercent(lo)
                  << (hi - lo > 0.05 ? " to " + signedPercent(hi) : "")
                  << ". Under autocast the parameters, their gradients and the optimizer state "
                     "stay fp32 (16 bytes per parameter with AdamW, whatever the precision); "
                     "matmul outputs, and the activations saved from them, become bf16, while "
                     "bf16 copies of the weights are cached until the step ends. So mixed "
                     "precision saves memory only where activations dominate the peak.\n\n";
        } else {
            m_out << "No pair of runs that differ only in precision (fp32 against bf16).\n\n";
        }
        // CS336 runs in fp32 without a mixed-precision twin (and the other way round).
        for (const Run* r : cs336_runs) {
            const auto& by_dtype =
                pairs[r->modelKey() + "|" + std::to_string(r->batch) + "|" +
                      std::to_string(r->seq) + "|" + r->variantKey() + "|" + r->profile];
            const std::string other = r->dtype == "bf16" ? "fp32" : "bf16";
            if (!by_dtype.count(other)) {
                want("CS336 (c), the " + other + " twin of " + r->name,
                     recordCommand(*r, {r->batch, r->seq, r->profile, other, 0}));
            }
        }
        if (cs336_runs.empty() && t.rows.empty()) {
            Run t2;
            t2.preset = "2.7B";
            fillFromPreset(t2);
            t2.known = Preset::find(t2.preset);
            for (const char* profile : {"forward", "training"}) {
                want(std::string("CS336 (c), mixed precision ") + profile,
                     recordCommand(t2, {4, 512, profile, "bf16", 1}));
            }
        }
    }

    void residualStream() {
        m_out << "### (d) Size of a residual-stream activation\n\n"
              << "A residual-stream activation is a [batch, context, d_model] tensor; in single "
                 "precision each element takes 4 bytes, so its size is B × S × D × 4 bytes, and "
                 "in MB that divided by 1024².\n\n";
        const auto line = [this](const std::string& what, int64_t B, int64_t S, int64_t D) {
            const int64_t bytes = B * S * D * 4;
            m_out << "- " << what << ": " << B << " × " << S << " × " << D
                  << " × 4 B = " << withThousands(bytes) << " B; " << withThousands(bytes)
                  << " / 1024² = " << formatFixed(double(bytes) / kMiB, 2) << " MB";
        };
        if (const Preset* p = Preset::find("2.7B")) {
            line("CS336 2.7B at the reference batch " + std::to_string(p->batch_size) +
                     " and context " + std::to_string(p->seq_len) + " (d_model " +
                     std::to_string(p->model.hidden_dim) + ")",
                 p->batch_size, p->seq_len, p->model.hidden_dim);
            m_out << ".\n";
        }
        std::set<std::tuple<int64_t, int64_t, int64_t>> seen;
        for (const auto& r : m_runs) {
            if (r.batch <= 0 || r.seq <= 0 || r.hidden <= 0 ||
                !seen.insert({r.batch, r.seq, r.hidden}).second) {
                continue;
            }
            line(r.name + " (" + r.modelLabel() + ", batch " + std::to_string(r.batch) +
                     ", context " + std::to_string(r.seq) + ", d_model " +
                     std::to_string(r.hidden) + ")",
                 r.batch, r.seq, r.hidden);
            // Evidence from the run itself: forward allocations of exactly that size.
            const int64_t bytes = r.batch * r.seq * r.hidden * 4;
            int64_t count = 0;
            const auto& ev = r.trace->events;
            for (const auto& a : r.trace->allocations()) {
                if (a.size == bytes && a.alloc_event >= 0 &&
                    static_cast<Phase>(ev.phase[static_cast<size_t>(a.alloc_event)]) ==
                        Phase::Forward) {
                    ++count;
                }
            }
            if (count > 0) {
                m_out << "; the run made " << withThousands(count)
                      << " forward allocations of exactly this size";
            }
            m_out << ".\n";
        }
        m_out << "\n";
    }

    void largestForCs336(std::vector<const Run*> runs) {
        m_out << "### (e) The largest allocations and where they come from\n\n";
        if (runs.empty()) {
            // The user's own runs with their sizes (snapshots, Python programs) answer it.
            for (const auto& sized : m_sized) {
                if (sized.sizes.count("s") != 0 || sized.sizes.count("b") != 0) {
                    runs.push_back(&*std::find_if(m_runs.begin(), m_runs.end(), [&](const Run& r) {
                        return r.trace == sized.trace;
                    }));
                }
            }
        }
        if (runs.empty()) {
            m_out << "No CS336 runs; the workshop runs' largest allocations are under exercise 2 "
                     "step 2. memory_viz's Detail slider keeps the largest allocations, which are "
                     "the first rows of these tables.\n\n";
            return;
        }
        m_out << "memory_viz's Detail slider keeps the largest allocations: these are the first "
                 "rows. Forward-only runs first, as the question asks.\n\n";
        std::vector<const Run*> ordered = runs;
        std::stable_sort(ordered.begin(), ordered.end(), [](const Run* a, const Run* b) {
            return forwardOnly(*a) && !forwardOnly(*b);
        });
        for (const Run* r : ordered) {
            largestAllocations(*r, 8);
        }
    }

    // A recorded configuration says; a run without one is forward-only when it has no backward.
    static bool forwardOnly(const Run& r) {
        return r.configured() ? r.forward() : !SizeTableChapter::hasBackward(*r.trace);
    }

    void missingSection() {
        m_out << "## Runs to add\n\n";
        if (m_missing.empty()) {
            m_out << "None: every table above has its rows.\n";
            return;
        }
        m_out << "These runs would fill the rows still empty above (export any run for "
                 "pytorch.org/memory_viz with `memscope-cli export RUN.memscope --to "
                 "RUN.pickle`):\n\n";
        bool big = false;
        for (const auto& line : m_missing) {
            m_out << "- " << line << "\n";
            big = big || line.find("--model-size 2.7B") != std::string::npos;
        }
        if (const Preset* p = Preset::find("2.7B"); big && p) {
            // Worth saying before someone starts one on a laptop.
            const int64_t params = ModelCost::parameters(p->model).total();
            m_out << "\nThe 2.7B model has " << withThousands(params)
                  << " parameters: a training step holds "
                  << formatFixed(double(params) * 16 / (1024.0 * 1024 * 1024), 1)
                  << " GiB of fp32 weights, gradients and AdamW state before any activation "
                     "(a forward pass "
                  << formatFixed(double(params) * 4 / (1024.0 * 1024 * 1024), 1)
                  << " GiB). `--model-size small` answers the same questions on a small machine; "
                     "`"
                  << TrainOptionTable::flag("device_memory_limit")
                  << "` makes a CPU run fail like a GPU of that size.\n";
        }
    }

    std::vector<Run> m_runs;
    std::vector<SizeTableChapter::SizedRun> m_sized;  // runs without a configuration, sized
    std::ostringstream m_out;
    std::vector<std::string> m_missing;
    std::set<std::string> m_missingSeen;
};

}  // namespace

std::string ReportWriter::markdown(const std::vector<Trace>& runs,
                                   const std::vector<std::string>& names,
                                   const std::vector<std::map<std::string, std::string>>& sizes) {
    return Report(runs, names, sizes).write();
}

}  // namespace memscope
