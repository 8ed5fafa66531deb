#include "report/report.h"

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

Report::Report(const std::vector<Trace>& traces, const std::vector<std::string>& names,
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

std::string Report::write() {
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

std::string Report::signedPercent(double change) {
    return (change >= 0 ? "+" : "") + formatFixed(change, 1) + "%";
}

std::string Report::samples(const Run& r) {
    return r.samples_per_s >= 0 ? formatFixed(r.samples_per_s, 1) : "—";
}

void Report::runsSection() {
    m_out << "## Runs\n\n";
    Table t;
    t.columns = {"Run",           "Model",   "Batch", "Seq",       "Dtype",    "Attention",
                 "Checkpointing", "Profile", "Steps", "Peak (MB)", "Avg (MB)", "Samples/s"};
    t.numeric = {false, false, true, true, false, false, false, false, true, true, true, true};
    for (const auto& r : m_runs) {
        const int64_t steps = r.s.value("steps", r.num_steps);
        if (!r.configured()) {
            t.rows.push_back({r.name, r.modelLabel(), "—", "—", "—", "—", "—", "—", "—",
                              formatMegabytes(r.peak), r.avg > 0 ? formatMegabytes(r.avg) : "—",
                              samples(r)});
            continue;
        }
        t.rows.push_back({r.name, r.modelLabel(), std::to_string(r.batch), std::to_string(r.seq),
                          r.dtype, r.attention, r.checkpointing, r.profile, std::to_string(steps),
                          formatMegabytes(r.peak), formatMegabytes(r.avg), samples(r)});
    }
    table(t);
    for (const auto& r : m_runs) {
        if (r.s.contains("oom") && r.s["oom"].is_object()) {
            const auto& o = r.s["oom"];
            m_out << "- **" << r.name << " ran out of memory** in step " << o.value("step", 0)
                  << " (" << o.value("phase", std::string())
                  << "): " << formatMegabytes(o.value("requested_bytes", int64_t(0)))
                  << " MB requested with " << formatMegabytes(o.value("free_bytes", int64_t(0)))
                  << " MB free of " << formatMegabytes(o.value("capacity_bytes", int64_t(0)))
                  << " MB, in " << code(o.value("module", std::string())) << " / "
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

void Report::oomExplanation(const Run& r) {
    const auto x = OomExplanation::fromJson(r.s.value("oom_explanation", nlohmann::json()));
    if (!x) {
        return;
    }
    m_out << "  - " << x->verdictSentence() << "\n";
    if (!x->categories().empty()) {
        m_out << "  - Filled by:";
        for (size_t i = 0; i < x->categories().size(); ++i) {
            m_out << (i == 0 ? " " : ", ") << x->categories()[i].first << " "
                  << formatMegabytes(x->categories()[i].second) << " MB";
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
        m_out << "  - Modules holding it (of " << formatMegabytes(x->aliveBytes()) << " MB alive):";
        for (size_t i = 0; i < rows.size() && i < 4; ++i) {
            m_out << (i == 0 ? " " : ", ") << code(rows[i].path) << " "
                  << formatMegabytes(rows[i].held) << " MB";
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
        m_out << "  - What fits " << formatMegabytes(x->capacity())
              << " MB, one change each (the planner):";
        for (size_t i = 0; i < advice.size() && i < 4; ++i) {
            m_out << (i == 0 ? " " : "; ") << code(advice[i].change) << " " << advice[i].summary
                  << ", " << formatMegabytes(advice[i].predicted_peak) << " MB";
        }
        m_out << (advice.empty() ? " no single change the planner models.\n"
                                 : ". `memscope-cli record ... --check-advice` reruns the "
                                   "first that needs one process and measures it.\n");
    } catch (const std::exception&) {
        // a configuration the planner does not model
    }
}

void Report::peakSection() {
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
            return v > 0 ? formatMegabytes(v) : std::string("—");
        };
        const bool inferred = r.trace->meta.categories_inferred;
        const std::string at = r.s.contains("peak_step") && (r.configured() || inferred)
                                   ? "step " + std::to_string(r.s.value("peak_step", 0)) + ", " +
                                         r.s.value("peak_phase", std::string()) +
                                         (inferred ? " (inferred)" : "")
                                   : "—";
        t.rows.push_back({r.name, formatMegabytes(r.peak), at, phase_mb("forward"),
                          phase_mb("backward"), phase_mb("optimizer"),
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
        std::vector<std::string> row{
            r.name, formatMegabytes(r.s.value("peak_allocated_bytes_recorded", r.peak))};
        for (const char* key : used) {
            row.push_back(formatMegabytes(r.category(key)));
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

void Report::growthSection() {
    std::vector<std::pair<std::string, const Trace*>> runs;
    for (const auto& r : m_runs) {
        runs.emplace_back(r.name, r.trace);
    }
    m_out << GrowthChapter::markdown(runs);
}

void Report::modulesSection() {
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
          << formatMegabytes(modules.aliveBytes()) << " MB alive.\n\n";
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
        std::vector<std::string> cells{name, formatMegabytes(row.held())};
        for (int c = 0; c < ModuleTable::kColumnCount; ++c) {
            cells.push_back(row.total[size_t(c)] ? formatMegabytes(row.total[size_t(c)]) : "—");
        }
        cells.push_back(row.saved_for_backward ? formatMegabytes(row.saved_for_backward) : "—");
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
            m_out << (i ? "; " : "") << code(row.path) << " " << formatMegabytes(row.held())
                  << " MB ("
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

void Report::savedPerBlock(const Run& r, const ModuleTable& modules) {
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
        cells.push_back(code(row.path.substr(10)) + " " + withThousands(row.saved_for_backward));
    }
    if (blocks == 0) {
        return;
    }
    m_out << "Bytes each block saved for backward in step " << modules.step() << ": "
          << join(cells, ", ")
          << ". The planner's activations per layer: " << withThousands(per_layer) << " bytes; "
          << agree << " of " << blocks << " blocks agree to the byte.\n\n";
}

std::string Report::join(const std::vector<std::string>& parts, const std::string& sep) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) {
        out += (i ? sep : "") + parts[i];
    }
    return out;
}

void Report::missingSection() {
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

}  // namespace memscope::report_detail
