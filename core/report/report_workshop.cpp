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

void Report::workshopSection() {
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

void Report::memoryQuestions(const std::vector<const Run*>& runs) {
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
          << "From " << r->name << "'s Modules view at its peak (step " << modules.step() << ", "
          << r->s.value("peak_phase", std::string("?")) << "):\n\n";
    m_out << "- **Where is peak memory consumed?** At the "
          << r->s.value("peak_phase", std::string("?")) << " of step " << modules.step()
          << ": activations saved for backward " << formatMegabytes(activations) << " MB ("
          << share(activations) << "%), parameters, gradients and optimizer state "
          << formatMegabytes(state) << " MB (" << share(state) << "%), backward buffers "
          << formatMegabytes(alive[ModuleTable::Backward]) << " MB.\n";
    const auto dominant = modules.dominantRows(1);
    if (!dominant.empty()) {
        const auto& row = modules.rows()[size_t(dominant[0])];
        m_out << "- **Which modules hold it?** " << code(row.path) << " holds "
              << formatMegabytes(row.held()) << " MB (" << share(row.held())
              << "%); the attention cores ("
              << "scores, softmax) " << formatMegabytes(attention_core) << " MB ("
              << share(attention_core) << "%).\n";
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
              << formatMegabytes(base) << " MB as recorded:";
        std::string best;
        int64_t best_peak = base;
        for (const auto& c : choices) {
            TrainOptions o = *options;
            c.apply(o);
            const int64_t peak = MemoryModel::predict(o).peak();
            m_out << " " << c.name << " " << formatMegabytes(peak) << " MB ("
                  << formatFixed(100.0 * double(peak - base) / double(base), 1) << "%);";
            if (peak < best_peak) {
                best_peak = peak;
                best = c.name;
            }
        }
        m_out << (best.empty() ? " none of them lowers the peak" : " the largest saving: " + best)
              << ". `memscope-cli record " << arg("device_memory_limit", "SIZE")
              << " --check-advice` checks "
                 "the advice for a limit by running it.\n\n";
    } catch (const std::exception&) {
        m_out << "\n";  // a configuration the planner does not model
    }
}

void Report::fillFromPreset(Run& t) {
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

std::string Report::groupTitle(const Run& r, bool with_seq, bool with_batch) {
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

void Report::batchScaling(const std::vector<const Run*>& runs) {
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
            m_out << "- **" << SeedTables::setting(SeedTables::Kind::Seed000Step1, *first.options)
                  << "**: from batch " << first.batch << " to " << last.batch << " ("
                  << formatFixed(double(last.batch) / double(first.batch), 1)
                  << "x) the peak grows " << formatFixed(double(last.peak) / double(first.peak), 2)
                  << "x: about " << formatMegabytes(int64_t(base))
                  << " MB that do not depend on the batch "
                  << "plus " << formatMegabytes(int64_t(per_sample)) << " MB per sample";
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

void Report::spikes(const std::vector<const Run*>& runs) {
    m_out << "### Step 2: what causes the largest memory spikes\n\n"
          << "The peak of each run, and what is live there, is in \"Where and when memory "
             "peaks\" above. The largest single allocations:\n\n";
    for (const Run* r : runs) {
        largestAllocations(*r, 6);
    }
}

void Report::seqScaling(const std::vector<const Run*>& runs) {
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
                                 first.dtype == "fp32" && first.variantKey() == "eager/none/adamw";
        workshop_group = workshop_group || is_workshop;
        if (is_workshop) {
            const std::pair<int64_t, int64_t> wanted[] = {{64, 8}, {128, 8}, {256, 8}, {512, 4}};
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
            want("exercise 2 step 3, sequence " + std::to_string(s) + " batch " + std::to_string(b),
                 recordCommand(t, {b, s, "training", "fp32", s == 512 ? 5 : 10}));
        }
    }
}

void Report::topOperators(const std::vector<const Run*>& runs) {
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
            m_out << i + 1 << ". " << code(o->name) << ": "
                  << formatMegabytes(o->self_bytes_allocated) << " MB in "
                  << withThousands(o->calls) << " calls (largest "
                  << formatMegabytes(o->largest_allocation) << " MB)\n";
        }
        m_out << "\n";
    }
}

void Report::largestAllocations(const Run& r, size_t groups_shown) {
    const Trace& trace = *r.trace;
    const auto& ev = trace.events;
    struct Group {
        int64_t size = 0;
        std::string category, phase, op, module;
        int64_t count = 0;
        uint32_t stack = 0;  // the first one's
    };
    std::map<std::tuple<int64_t, std::string, std::string, std::string, std::string>, Group> groups;
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
        t.rows.push_back({formatMegabytes(g.size), std::to_string(g.count), g.category, g.phase,
                          g.op.empty() ? "—" : g.op, g.module.empty() ? "—" : g.module,
                          shapeOf(r, g.size)});
    }
    table(t);
    const Group& top = groups.begin()->second;
    m_out << "The largest allocations are " << formatMegabytes(top.size) << " MB ("
          << withThousands(top.size) << " bytes";
    const std::string shape = shapeOf(r, top.size);
    if (!shape.empty()) {
        m_out << " = " << shape;
    }
    m_out << "), made by " << (top.op.empty() ? "an unnamed op" : code(top.op))
          << (top.module.empty() ? " outside any module" : " in " + code(top.module)) << " during "
          << top.phase << "; stack of the first: " << code(trace.stacks.describe(top.stack)) << ".";
    if (init_count > 0) {
        m_out << " Left out: the " << withThousands(init_count)
              << " allocations made while building the model (largest "
              << formatMegabytes(init_largest) << " MB).";
    }
    m_out << "\n\n";
}

}  // namespace memscope::report_detail
