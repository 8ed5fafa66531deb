#include "explain/trace_summary.h"

#include "explain/oom_explanation.h"
#include "explain/reserved_memory.h"
#include "explain/step_growth.h"
#include "run/run_summary.h"
#include "run/text_format.h"
#include "trace/parameter_inference.h"
#include "trace/recorded_options.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <sstream>

namespace memscope {

namespace {

// The n largest allocations' indices, largest first: std::partial_sort over all indices, which
// fixes the order of equal sizes. The indices are 32-bit where they fit, which halves the
// array (6M allocations: 24 instead of 49 MB, the peak of summarizing a 1 GB snapshot) and
// gives the same order: partial_sort's moves depend only on its comparisons.
template <typename Index>
std::vector<size_t> largestFirstAs(const AllocationList& allocations, size_t n) {
    std::vector<Index> order(allocations.size());
    for (size_t i = 0; i < order.size(); ++i) {
        order[i] = static_cast<Index>(i);
    }
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(),
                      [&](Index a, Index b) { return allocations[a].size > allocations[b].size; });
    return std::vector<size_t>(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n));
}

std::vector<size_t> largestFirst(const AllocationList& allocations, size_t n) {
    return allocations.size() <= UINT32_MAX ? largestFirstAs<uint32_t>(allocations, n)
                                            : largestFirstAs<size_t>(allocations, n);
}

// Reserved minus allocated bytes, at least 0; a damaged file's values may be any int64, whose
// difference overflows: that saturates instead.
int64_t freeBytes(int64_t reserved, int64_t allocated) {
    int64_t free = 0;
    if (__builtin_sub_overflow(reserved, allocated, &free)) {
        return reserved > allocated ? INT64_MAX : 0;
    }
    return std::max<int64_t>(0, free);
}

}  // namespace

std::string TraceSummary::moduleOf(const StackTable& stacks, uint32_t node) {
    for (uint32_t n = node; n != StackTable::kEmpty; n = stacks.parent(n)) {
        const auto& f = stacks.frame(stacks.frameOf(n));
        if (f.kind == FrameKind::Module || f.kind == FrameKind::BackwardOf) {
            return f.name;
        }
    }
    return {};
}

std::string TraceSummary::operatorOf(const StackTable& stacks, uint32_t node) {
    std::string backward_node;
    for (uint32_t n = node; n != StackTable::kEmpty; n = stacks.parent(n)) {
        const auto& f = stacks.frame(stacks.frameOf(n));
        if (f.kind == FrameKind::Operator) {
            return f.name;
        }
        if (f.kind == FrameKind::BackwardNode && backward_node.empty()) {
            backward_node = f.name;
        }
    }
    return backward_node;
}

std::string TraceSummary::userFrameOf(const StackTable& stacks, uint32_t node) {
    for (uint32_t n = node; n != StackTable::kEmpty && n < stacks.nodeCount();
         n = stacks.parent(n)) {
        const auto& f = stacks.frame(stacks.frameOf(n));
        if (f.kind == FrameKind::Other && !f.file.empty()) {
            return f.file + ":" + std::to_string(f.line) + " " + f.name;
        }
    }
    return {};
}

std::string TraceSummary::userFrameOrNodeOf(const StackTable& stacks, uint32_t node) {
    std::string where = userFrameOf(stacks, node);
    for (uint32_t n = node; where.empty() && n != StackTable::kEmpty && n < stacks.nodeCount();
         n = stacks.parent(n)) {
        const auto& f = stacks.frame(stacks.frameOf(n));
        if (f.kind == FrameKind::BackwardNode) {
            where = f.name;
        }
    }
    return where;
}

std::string TraceSummary::calledOperatorOf(const StackTable& stacks, uint32_t node) {
    std::string op;
    for (uint32_t n = node; n != StackTable::kEmpty && n < stacks.nodeCount();
         n = stacks.parent(n)) {
        const auto& f = stacks.frame(stacks.frameOf(n));
        if (f.kind == FrameKind::Operator) {
            op = f.name;
        } else if (!op.empty()) {
            break;
        }
    }
    return op;
}

std::vector<TraceSummary::RuleShare> TraceSummary::leadingRulesAt(const Trace& trace,
                                                                  size_t event) {
    std::vector<int64_t> bytes(size_t(kCategoryCount) * kCategoryRuleCount, 0);
    const auto limit = static_cast<int64_t>(event);
    for (const Allocation& a : trace.allocations()) {
        if (a.alloc_event <= limit && !(a.free_event >= 0 && a.free_event <= limit)) {
            const size_t rule = std::min<size_t>(size_t(a.rule), kCategoryRuleCount - 1);
            bytes[categoryIndex(int(a.category)) * kCategoryRuleCount + rule] += a.size;
        }
    }
    std::vector<RuleShare> out(kCategoryCount);
    for (size_t c = 0; c < out.size(); ++c) {
        for (size_t r = 0; r < size_t(kCategoryRuleCount); ++r) {
            if (bytes[c * kCategoryRuleCount + r] > out[c].bytes) {
                out[c] = {static_cast<CategoryRule>(r), bytes[c * kCategoryRuleCount + r]};
            }
        }
    }
    return out;
}

int64_t TraceSummary::beforeRecordingBytes(const Trace& trace) {
    int64_t bytes = 0;
    for (const Allocation& a : trace.allocations()) {
        if (a.alloc_event < 0 || trace.events.step[size_t(a.alloc_event)] < 0) {
            bytes += a.size;
        }
    }
    return bytes;
}

nlohmann::json TraceSummary::parametersInferred(const Trace& trace) {
    if (!trace.meta.categories_inferred || beforeRecordingBytes(trace) == 0) {
        return nullptr;
    }
    const ParameterInference::Match m = ParameterInference::match(trace);
    if (m.gradients == 0) {
        return nullptr;
    }
    return {{"step", m.step},
            {"gradients", m.gradients},
            {"unmatched", m.unmatched},
            {"parameters", m.parameters},
            {"parameter_bytes", m.parameter_bytes},
            {"states", m.states},
            {"state_bytes", m.state_bytes}};
}

std::string TraceSummary::ruleId(CategoryRule rule) {
    switch (rule) {
        case CategoryRule::Named:
            return "NAMED";
        case CategoryRule::BeforeRecording:
            return "BEFORE_RECORDING";
        case CategoryRule::FreedInBackward:
            return "FREED_IN_BACKWARD";
        case CategoryRule::AliveAtBackward:
            return "ALIVE_AT_BACKWARD";
        case CategoryRule::FreedInPhase:
            return "FREED_IN_PHASE";
        case CategoryRule::ForwardFreedLater:
            return "FORWARD_FREED_LATER";
        case CategoryRule::MadeByAccumulateGrad:
            return "MADE_BY_ACCUMULATE_GRAD";
        case CategoryRule::AliveAfterBackward:
            return "ALIVE_AFTER_BACKWARD";
        case CategoryRule::KeptAfterBackward:
            return "KEPT_AFTER_BACKWARD";
        case CategoryRule::KeptByOptimizer:
            return "KEPT_BY_OPTIMIZER";
        case CategoryRule::MadeInCollective:
            return "MADE_IN_COLLECTIVE";
        case CategoryRule::AliveAtOutOfMemory:
            return "ALIVE_AT_OUT_OF_MEMORY";
        case CategoryRule::ParameterOfGradient:
            return "PARAMETER_OF_GRADIENT";
        case CategoryRule::StateBesideParameter:
            return "STATE_BESIDE_PARAMETER";
        case CategoryRule::NothingTells:
            break;
    }
    return "NOTHING_TELLS";
}

nlohmann::json TraceSummary::compute(const Trace& trace, size_t largest) {
    const auto& ev = trace.events;
    // An import's Phase::Other is a phase nothing told (interchange/phase_inference.h).
    const bool inferred = trace.meta.categories_inferred;
    auto phaseText = [&trace](Phase p) {
        return trace.meta.categories_inferred && p == Phase::Other ? std::string("unknown")
                                                                   : toString(p);
    };
    nlohmann::json out;
    int64_t alloc_free = 0;
    int64_t phase_peak[kPhaseCount] = {0, 0, 0, 0, 0};
    int64_t step1_peak = 0;
    int64_t steady_peak = 0;
    double weighted = 0;
    int64_t first_time = -1;
    int64_t last_time = 0;
    int64_t previous_bytes = 0;
    int64_t previous_time = 0;
    nlohmann::json oom = nullptr;
    // Recorded runs average over their steps; imported snapshots have no steps (all step 0), so
    // they average over everything.
    bool has_steps = false;
    for (size_t i = 0; i < ev.count() && !has_steps; ++i) {
        has_steps = ev.step[i] >= 1;
    }
    const int32_t first_step = has_steps ? 1 : 0;
    PackedReader kinds(ev.kind);
    PackedReader steps(ev.step);
    PackedReader phases(ev.phase);
    PackedReader allocated(ev.allocated);
    PackedReader times(ev.time_ns);
    for (size_t i = 0; i < ev.count(); ++i) {
        const auto kind = static_cast<EventKind>(kinds[i]);
        if (kind == EventKind::Oom && oom.is_null()) {
            oom = {{"requested_bytes", ev.size[i]},
                   {"allocated_bytes", ev.allocated[i]},
                   {"capacity_bytes", ev.reserved[i]},
                   {"free_bytes", freeBytes(ev.reserved[i], ev.allocated[i])},
                   {"time_ns", ev.time_ns[i]},
                   {"step", ev.step[i]},
                   {"phase", toString(static_cast<Phase>(ev.phase[i]))},
                   {"module", moduleOf(trace.stacks, ev.stack[i])},
                   {"op", operatorOf(trace.stacks, ev.stack[i])},
                   {"stack", trace.stacks.describe(ev.stack[i])}};
        }
        if (kind != EventKind::Alloc && kind != EventKind::Free) {
            continue;
        }
        ++alloc_free;
        if (steps[i] == 1) {
            step1_peak = std::max(step1_peak, allocated[i]);
        } else if (steps[i] >= 2) {
            steady_peak = std::max(steady_peak, allocated[i]);
        }
        const auto phase = phases[i];
        if (phase < kPhaseCount) {
            phase_peak[phase] = std::max(phase_peak[phase], allocated[i]);
        }
        if (steps[i] >= first_step) {
            if (first_time < 0) {
                first_time = times[i];
            } else {
                // In doubles: a damaged file's times may be any int64, whose difference overflows.
                weighted += double(previous_bytes) * (double(times[i]) - double(previous_time));
            }
            previous_bytes = allocated[i];
            previous_time = times[i];
            last_time = times[i];
        }
    }
    const double span = first_time >= 0 ? double(last_time) - double(first_time) : 0.0;
    const int64_t avg = span > 0 ? int64_t(weighted / span) : previous_bytes;
    out["avg_allocated_bytes"] = avg;
    out["step1_peak_allocated_bytes_recorded"] = step1_peak;
    out["steady_peak_allocated_bytes_recorded"] = steady_peak;
    out["peak_by_phase"] = {{"forward", phase_peak[int(Phase::Forward)]},
                            {"backward", phase_peak[int(Phase::Backward)]},
                            {"optimizer", phase_peak[int(Phase::Optimizer)]}};
    const auto peak = trace.peakEvent();
    nlohmann::json by_category = nlohmann::json::object();
    if (peak >= 0) {
        const auto bytes = trace.bytesByCategoryAt(static_cast<size_t>(peak));
        for (int c = 0; c < kCategoryCount; ++c) {
            by_category[toString(static_cast<Category>(c))] = bytes[c];
        }
        nlohmann::json rules = nlohmann::json::object();
        const auto leading = leadingRulesAt(trace, static_cast<size_t>(peak));
        for (int c = 0; c < kCategoryCount; ++c) {
            if (leading[size_t(c)].bytes > 0) {
                rules[toString(static_cast<Category>(c))] = {
                    {"rule", describe(leading[size_t(c)].rule, inferred)},
                    {"rule_id", ruleId(leading[size_t(c)].rule)},
                    {"bytes", leading[size_t(c)].bytes}};
            }
        }
        out["category_rules_at_peak"] = rules;
        out["peak_allocated_bytes_recorded"] = ev.allocated[static_cast<size_t>(peak)];
        out["peak_to_avg_ratio"] =
            avg > 0 ? double(ev.allocated[static_cast<size_t>(peak)]) / double(avg) : 0.0;
        out["peak_event"] = peak;
        out["peak_step"] = ev.step[static_cast<size_t>(peak)];
        out["peak_phase"] = phaseText(static_cast<Phase>(ev.phase[static_cast<size_t>(peak)]));
    }
    out["bytes_by_category_at_peak"] = by_category;
    out["before_recording_bytes"] = beforeRecordingBytes(trace);
    if (const nlohmann::json p = parametersInferred(trace); !p.is_null()) {
        out["parameters_inferred"] = p;
    }

    const auto& allocations = trace.allocations();
    const size_t n = std::min(largest, allocations.size());
    const std::vector<size_t> order = largestFirst(allocations, n);
    nlohmann::json top = nlohmann::json::array();
    for (size_t k = 0; k < n; ++k) {
        const auto& a = allocations[order[k]];
        const int64_t e = a.event();
        const auto stack = ev.stack[static_cast<size_t>(e)];
        // Made before the trace began: freed without an alloc, or an import's block alive at
        // its start (step -1).
        const bool before = a.alloc_event < 0 || ev.step[static_cast<size_t>(e)] < 0;
        nlohmann::json row = {
            {"size", a.size},
            {"category", toString(a.category)},
            {"phase", !before ? phaseText(static_cast<Phase>(ev.phase[static_cast<size_t>(e)]))
                              : std::string("before recording")},
            {"step", ev.step[static_cast<size_t>(e)]},
            {"module", moduleOf(trace.stacks, stack)},
            {"op",
             inferred ? calledOperatorOf(trace.stacks, stack) : operatorOf(trace.stacks, stack)},
            {"frame", userFrameOf(trace.stacks, stack)},
            {"stack", trace.stacks.describe(stack)}};
        if (before) {
            row["before_recording"] = true;
        }
        if (inferred) {
            row["frame"] = userFrameOrNodeOf(trace.stacks, stack);
        }
        top.push_back(std::move(row));
    }
    out["largest_allocations"] = top;
    out["oom"] = oom;
    // Why it ran out: capacity or fragmentation, and what filled the device (issue 41).
    if (!oom.is_null()) {
        const auto explanation = OomExplanation::explain(trace);
        out["oom_explanation"] = explanation ? explanation->toJson() : nlohmann::json();
    } else {
        out["oom_explanation"] = nullptr;
    }
    out["reserved"] = ReservedMemory::compute(trace).toJson();
    out["events"] = alloc_free;
    // Segment events: the caching allocator's reserves and releases (a GPU recording with its
    // trace tracker, an imported snapshot); 0 and 0 on a CPU run.
    int64_t reserves = 0, releases = 0;
    ev.kind.forEach(0, ev.count(), [&](uint8_t k) {
        const auto kind = static_cast<EventKind>(k);
        reserves += kind == EventKind::SegmentAlloc;
        releases += kind == EventKind::SegmentFree;
    });
    out["segment_events"] = {{"reserve", reserves}, {"release", releases}};
    out["dropped_events"] = trace.meta.dropped_events;
    if (trace.meta.categories_inferred) {
        out["categories_inferred"] = true;
    }
    return out;
}

nlohmann::json TraceSummary::completed(const Trace& trace) {
    nlohmann::json summary = trace.summary.is_object() ? trace.summary : nlohmann::json::object();
    if (!summary.contains("events")) {
        summary.update(compute(trace));
    }
    if (!summary.contains("reserved")) {  // files written before reserved memory was summarised
        summary["reserved"] = ReservedMemory::compute(trace).toJson();
    }
    // Files written before an out-of-memory event was explained (issue 41).
    if (!summary.contains("oom_explanation")) {
        const auto explanation = OomExplanation::explain(trace);
        summary["oom_explanation"] = explanation ? explanation->toJson() : nlohmann::json();
    }
    // Files written before info said what was allocated before recording, and which rule put
    // an import's bytes in each category (issue 39).
    if (!summary.contains("before_recording_bytes")) {
        summary["before_recording_bytes"] = beforeRecordingBytes(trace);
    }
    if (!summary.contains("parameters_inferred")) {  // files written before (issue 52)
        if (const nlohmann::json p = parametersInferred(trace); !p.is_null()) {
            summary["parameters_inferred"] = p;
        }
    }
    if (trace.meta.categories_inferred && !summary.contains("category_rules_at_peak")) {
        summary["category_rules_at_peak"] = compute(trace)["category_rules_at_peak"];
    }
    // Why memory grows every step, if it does (issue 53): derived each time, never stored.
    summary["growth"] = StepGrowth::analyze(trace).toJson(10);
    return summary;
}

std::string TraceSummary::toText(const Trace& trace, const nlohmann::json& s, size_t top) {
    std::ostringstream out;
    auto bytes = [&s](const char* key) { return formatBytes(s.value(key, int64_t(0))); };
    // What the run file does not know is left out, or said not to be recorded (imports).
    const RunMetadata& meta = trace.meta;
    out << "Run: " << meta.source;
    if (!meta.device.empty()) {
        out << ", " << meta.device;
        if (!meta.device_name.empty()) {
            out << " (" << meta.device_name << ")";
        }
    }
    if (!meta.torch_version.empty()) {
        out << ", LibTorch " << meta.torch_version;
    }
    if (meta.threads > 0) {
        out << ", " << meta.threads << " threads";
    }
    if (meta.torch_version.empty() && meta.threads <= 0) {
        out << "; PyTorch version and threads not recorded";
    }
    out << "\n";
    // A snapshot of several lanes (CUDA devices, pinned host memory): which, and which is shown.
    // "host" and "host (pinned)" are SnapshotImporter::kHostLaneKey and kHostLaneName (explain/
    // sits below interchange/).
    if (const auto it = s.find("devices");
        s.value("imported", false) && it != s.end() && it->is_array() && it->size() > 1) {
        std::string lanes;
        for (const auto& d : *it) {
            const std::string lane =
                d.is_string()
                    ? (d.get<std::string>() == "host" ? "host (pinned)" : d.get<std::string>())
                : d.is_number_integer() ? "cuda:" + std::to_string(d.get<int64_t>())
                                        : std::string("?");
            lanes += (lanes.empty() ? "" : ", ") + lane;
        }
        out << "Lanes: " << lanes << "; shown: " << meta.device
            << " (import --device N, or host, takes another)\n";
    }
    // A damaged snapshot (SnapshotImporter::ImportOptions::keep_partial): its error's one line.
    if (const auto it = s.find("partial"); it != s.end() && it->is_object()) {
        out << "Partial: " << it->value("error", std::string("the file is damaged"))
            << "; what was read before the damage is shown\n";
    }
    if (const auto o = recordedOptions(trace.meta)) {
        out << "Config: " << o->preset << ", batch " << o->batch_size << ", seq " << o->seq_len
            << ", " << toString(o->dtype) << ", attention " << toString(o->attention)
            << ", checkpointing " << toString(o->checkpointing) << ", " << toString(o->profile)
            << "\n";
    }
    if (s.contains("program") && s["program"].is_object() && s["program"].contains("optimizers") &&
        s["program"]["optimizers"].is_array() && !s["program"]["optimizers"].empty()) {
        // A Python program's optimizers, as its steps called them ("ZeroOne > AdamW": a
        // wrapper's step and the inner optimizer's, one step).
        std::vector<std::string> names;
        for (const auto& name : s["program"]["optimizers"]) {
            if (name.is_string()) {
                names.push_back(name.get<std::string>());
            }
        }
        out << "Optimizer: " << joinedNames(names) << "\n";
    }
    out << "Events: " << s.value("events", int64_t(0)) << " allocations and frees";
    if (s.value("dropped_events", int64_t(0)) > 0) {
        out << " (" << s.value("dropped_events", int64_t(0))
            << " oldest events dropped by --max-events)";
    }
    out << "\n";
    if (s.value("events", int64_t(0)) == 0 && trace.events.count() == 0) {
        // Nothing to show at a peak: say so instead of printing empty fields.
        out << "No tensor was allocated in this run";
        if (s.contains("program") && s["program"].is_object() && s["program"].contains("ending")) {
            out << " (the program ended: " << s["program"].value("ending", std::string()) << ")";
        }
        out << ".\n";
        if (meta.config.is_object() && meta.config.contains("program")) {
            out << "A Python program's tensors may live in the processes it starts: record "
                   "--python records each that imports torch, as a rank of a run directory.\n";
        }
        return out.str();
    }
    if (s.contains("peak_allocated_bytes")) {
        out << "Peak allocated: " << bytes("peak_allocated_bytes")
            << " (step 1: " << bytes("step1_peak_allocated_bytes")
            << ", steady: " << bytes("steady_peak_allocated_bytes") << ")\n";
    } else if (s.contains("peak_allocated_bytes_recorded")) {
        // Imports and runs without a training summary: the peak of the events.
        out << "Peak allocated: " << bytes("peak_allocated_bytes_recorded") << " (event "
            << s.value("peak_event", int64_t(0)) << ")\n";
    }
    out << "Average allocated: " << bytes("avg_allocated_bytes");
    if (s.value("peak_to_avg_ratio", 0.0) > 0) {
        char ratio[64];
        std::snprintf(ratio, sizeof ratio, " (peak/average %.2f)",
                      s.value("peak_to_avg_ratio", 0.0));
        out << ratio;
    }
    out << "\n";
    const bool inferred = s.value("categories_inferred", false) || trace.meta.categories_inferred;
    if (s.contains("peak_by_phase")) {
        const auto& p = s["peak_by_phase"];
        const int64_t forward = p.value("forward", int64_t(0));
        const int64_t backward = p.value("backward", int64_t(0));
        const int64_t optimizer = p.value("optimizer", int64_t(0));
        if (inferred && forward == 0 && backward == 0 && optimizer == 0) {
            out << "Peak by phase: unknown (nothing in the snapshot tells the phases)\n";
        } else {
            out << "Peak by phase" << (inferred ? " (inferred)" : "") << ": forward "
                << formatBytes(forward) << ", backward " << formatBytes(backward) << ", optimizer "
                << formatBytes(optimizer) << "\n";
        }
    }
    if (s.contains("bytes_by_category_at_peak")) {
        out << "At the peak (step " << s.value("peak_step", 0) << ", "
            << s.value("peak_phase", std::string()) << ")"
            << (inferred ? ", categories inferred from the snapshot's frames and annotations" : "")
            << ":\n";
        // An import's categories say which rule put most of their bytes there.
        const nlohmann::json rules = s.value("category_rules_at_peak", nlohmann::json::object());
        for (const auto& [name, value] : s["bytes_by_category_at_peak"].items()) {
            if (value.get<int64_t>() != 0) {
                std::string why = inferred ? "  inferred" : "";
                if (inferred && rules.contains(name) && rules[name].contains("rule")) {
                    why += ": " + rules[name].value("rule", std::string());
                }
                char line[256];
                std::snprintf(line, sizeof line, "  %-16s %12s%s\n", name.c_str(),
                              formatBytes(value.get<int64_t>()).c_str(), why.c_str());
                out << line;
            }
        }
    }
    if (const auto it = s.find("growth"); it != s.end() && it->is_object() &&
                                          it->value("verdict", std::string()) != "too_few_steps") {
        out << "Growth across steps: " << it->value("text", std::string()) << "\n";
    }
    if (s.value("before_recording_bytes", int64_t(0)) > 0) {
        // A child made by fork() (python/memscope/_child.py) begins with its parent's tensors.
        const auto& program = meta.config.is_object()
                                  ? meta.config.value("program", nlohmann::json())
                                  : nlohmann::json();
        const bool forked = program.is_object() && program.contains("process") &&
                            program["process"].is_object() &&
                            program["process"].value("role", std::string()) == "fork";
        if (forked) {
            out << "Before recording: " << bytes("before_recording_bytes")
                << " inherited from the parent process, alive when it forked this one (pid "
                << program["process"].value("ppid", int64_t(0)) << ").\n";
        } else {
            out << "Before recording: " << bytes("before_recording_bytes")
                << " allocated before recording started. These are usually the model's "
                   "parameters, and after warm-up steps also gradients and optimizer state. To "
                   "see them, start recording before building the model.\n";
        }
    }
    // Which of them are the parameters, by the gradients (trace/parameter_inference.h).
    if (const auto it = s.find("parameters_inferred"); it != s.end() && it->is_object()) {
        const auto& p = *it;
        const int64_t gradients = p.value("gradients", int64_t(0));
        const int64_t unmatched = p.value("unmatched", int64_t(0));
        if (unmatched == 0) {
            out << "Parameters (inferred): " << formatBytes(p.value("parameter_bytes", int64_t(0)))
                << " in " << p.value("parameters", int64_t(0))
                << " blocks alive from before the trace to its end, one for each gradient of step "
                << p.value("step", 0) << " by size";
            if (p.value("states", int64_t(0)) > 0) {
                out << "; optimizer state beside them (inferred): "
                    << formatBytes(p.value("state_bytes", int64_t(0))) << " in "
                    << p.value("states", int64_t(0))
                    << " more blocks of their sizes (which block of a size is the parameter is "
                       "not in the file)";
            }
            out << ".\n";
        } else {
            out << "Parameters not inferred: " << unmatched << " of the " << gradients
                << " gradients of step " << p.value("step", 0)
                << " have no block of their size alive from before the trace to its end.\n";
        }
    }
    // PyTorch's ring buffer dropped the oldest trace entries (SnapshotImporter).
    if (const auto it = s.find("trace_history");
        it != s.end() && it->is_object() && it->value("overflowed", false)) {
        out << "History started late: PyTorch kept ";
        if (it->contains("max_entries")) {
            out << "only its last " << it->value("max_entries", int64_t(0))
                << " trace entries (trace_alloc_max_entries)";
        } else {
            out << "only its last trace entries";
        }
        out << " and dropped the older ones (trace_alloc_overflowed). What they allocated and had "
               "not freed, "
            << bytes("before_recording_bytes")
            << ", is shown as present from the start; a larger max_entries in "
               "torch.cuda.memory._record_memory_history keeps more.\n";
    }
    if (s.contains("oom") && !s["oom"].is_null()) {
        const auto& o = s["oom"];
        out << "OUT OF MEMORY in step " << o.value("step", 0) << " ("
            << o.value("phase", std::string())
            << "): " << formatBytes(o.value("requested_bytes", int64_t(0))) << " requested, "
            << formatBytes(o.value("free_bytes", int64_t(0))) << " free of "
            << formatBytes(o.value("capacity_bytes", int64_t(0)));
        // "in MODULE / OP", leaving out what the stack does not name.
        const std::string module = o.value("module", std::string());
        const std::string op = o.value("op", std::string());
        if (!module.empty() || !op.empty()) {
            out << ", in " << module << (module.empty() || op.empty() ? "" : " / ") << op;
        }
        out << "\n";
        if (const auto explanation =
                OomExplanation::fromJson(s.value("oom_explanation", nlohmann::json()))) {
            out << explanation->toText();
        }
    }
    if (s.contains("reserved")) {
        out << ReservedMemory::toText(s["reserved"]);
    }
    if (s.contains("largest_allocations")) {
        out << "Largest allocations:\n";
        for (const auto& a : s["largest_allocations"]) {
            // Where: the module (recordings) or the innermost user frame (imports), and the
            // operator; without either, why there is no stack when that is known.
            std::string where = a.value("module", std::string());
            if (where.empty()) {
                where = a.value("frame", std::string());
            }
            const std::string op = a.value("op", std::string());
            std::string text = where.empty() ? op : op.empty() ? where : where + " / " + op;
            if (text.empty()) {
                text = a.value("before_recording", false) ? "allocated before recording started"
                                                          : "[no stack]";
            }
            char line[768];
            std::snprintf(line, sizeof line, "  %10s  %-16s %-9s %s\n",
                          formatBytes(a.value("size", int64_t(0))).c_str(),
                          a.value("category", std::string()).c_str(),
                          a.value("phase", std::string()).c_str(), text.c_str());
            out << line;
        }
    }
    auto ops = trace.operators;
    auto print_top = [&](const char* title, auto key, auto value) {
        std::vector<OperatorStat> list;
        for (const auto& o : ops) {
            if (!o.is_module)
                list.push_back(o);
        }
        std::sort(list.begin(), list.end(),
                  [&](const OperatorStat& a, const OperatorStat& b) { return key(a) > key(b); });
        out << title << "\n";
        for (size_t i = 0; i < std::min(top, list.size()); ++i) {
            char line[256];
            std::snprintf(line, sizeof line, "  %-36s %8lld calls  %s\n", list[i].name.c_str(),
                          static_cast<long long>(list[i].calls), value(list[i]).c_str());
            out << line;
        }
    };
    if (!ops.empty()) {
        print_top(
            "Top operators by memory (self bytes allocated):",
            [](const OperatorStat& o) { return double(o.self_bytes_allocated); },
            [](const OperatorStat& o) {
                return formatBytes(o.self_bytes_allocated) + " allocated, largest " +
                       formatBytes(o.largest_allocation);
            });
        print_top(
            "Top operators by time (self CPU):",
            [](const OperatorStat& o) { return double(o.self_ns); },
            [](const OperatorStat& o) {
                char buf[64];
                std::snprintf(buf, sizeof buf, "%.3f ms self, %.3f ms total", o.self_ns / 1e6,
                              o.total_ns / 1e6);
                return std::string(buf);
            });
    }
    return out.str();
}

}  // namespace memscope
