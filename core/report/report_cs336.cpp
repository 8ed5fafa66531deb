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

void Report::cs336Section() {
    m_out << "## CS336 assignment 2: memory profiling\n\n";
    const auto runs = select([](const Run& r) { return r.cs336; });
    contextLengths();
    mixedPrecision(runs);
    residualStream();
    largestForCs336(runs);
}

void Report::contextLengths() {
    m_out << "### (b) Peak memory by context length\n\n";
    // CS336 runs, and the runs of any other setting that has a forward-only run to set
    // against training.
    const auto setting = [](const Run& r) {
        return r.modelKey() + "|" + std::to_string(r.batch) + "|" + r.dtype + "|" + r.variantKey();
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
                want(std::string("CS336 (b), ") + profile + " at context " + std::to_string(ctx),
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
                    want(std::string("CS336 (b), ") + (forward ? "a forward-only" : "a training") +
                             " run at context " + std::to_string(ctx),
                         recordCommand(first, {first.batch, ctx, forward ? "forward" : "training",
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

void Report::mixedPrecision(const std::vector<const Run*>& cs336_runs) {
    m_out << "### (c) Mixed precision\n\n";
    std::map<std::string, std::map<std::string, const Run*>> pairs;  // key -> dtype -> run
    for (const auto& r : m_runs) {
        if (r.configured()) {
            pairs[r.modelKey() + "|" + std::to_string(r.batch) + "|" + std::to_string(r.seq) + "|" +
                  r.variantKey() + "|" + r.profile][r.dtype] = &r;
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
        t.rows.push_back(
            {a.modelLabel(), std::to_string(a.batch), std::to_string(a.seq), a.profile,
             formatMegabytes(a.peak), formatMegabytes(c.peak), signedPercent(change),
             a.s.value("peak_phase", std::string("—")) + " / " +
                 c.s.value("peak_phase", std::string("—")),
             formatMegabytes(forward_peak(a)) + " → " + formatMegabytes(forward_peak(c))});
    }
    if (!t.rows.empty()) {
        // The exercise's table ((b) in both precisions) over every run of a model, batch
        // and variant that has a pair, then each pair side by side.
        std::set<std::string> models;
        for (const Run* r : paired) {
            models.insert(r->modelKey() + "|" + std::to_string(r->batch) + "|" + r->variantKey());
        }
        std::vector<const Run*> shown;
        for (const auto& r : m_runs) {
            if (r.configured() &&
                models.count(r.modelKey() + "|" + std::to_string(r.batch) + "|" + r.variantKey())) {
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
            pairs[r->modelKey() + "|" + std::to_string(r->batch) + "|" + std::to_string(r->seq) +
                  "|" + r->variantKey() + "|" + r->profile];
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

void Report::residualStream() {
    m_out << "### (d) Size of a residual-stream activation\n\n"
          << "A residual-stream activation is a [batch, context, d_model] tensor; in single "
             "precision each element takes 4 bytes, so its size is B × S × D × 4 bytes, and "
             "in MB that divided by 1024².\n\n";
    const auto line = [this](const std::string& what, int64_t B, int64_t S, int64_t D) {
        const int64_t bytes = B * S * D * 4;
        m_out << "- " << what << ": " << B << " × " << S << " × " << D
              << " × 4 B = " << withThousands(bytes) << " B; " << withThousands(bytes)
              << " / 1024² = " << formatFixed(double(bytes) / kBytesPerMiB, 2) << " MB";
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
        line(r.name + " (" + r.modelLabel() + ", batch " + std::to_string(r.batch) + ", context " +
                 std::to_string(r.seq) + ", d_model " + std::to_string(r.hidden) + ")",
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

void Report::largestForCs336(std::vector<const Run*> runs) {
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

bool Report::forwardOnly(const Run& r) {
    return r.configured() ? r.forward() : !SizeTableChapter::hasBackward(*r.trace);
}

}  // namespace memscope::report_detail
