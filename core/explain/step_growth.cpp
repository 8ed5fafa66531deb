#include "explain/step_growth.h"

#include "explain/module_table.h"
#include "explain/trace_summary.h"
#include "run/run_summary.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace memscope {

namespace {

bool expectedToLive(Category category) {
    return category == Category::Parameter || category == Category::Gradient ||
           category == Category::OptimizerState || category == Category::BeforeRecording;
}

// Per judged step (index 1 .. K - 1), what a group kept to the last complete step.
struct GrowthAccumulator {
    std::vector<int64_t> bytes;
    std::vector<int64_t> count;
    std::vector<int64_t> allocations;
};

// "train.py:12 Net.forward": the file's name (not its folder), the line, the function.
std::string sourced(const Frame& f) {
    return f.file.substr(f.file.find_last_of('/') + 1) + ":" + std::to_string(f.line) + " " +
           f.name;
}

// made_at: the innermost frame with a source file; called_from: the innermost one above the
// outermost module frame that is not a forward (the program's line that called into the
// model), if not the same.
void placeOf(const StackTable& stacks, uint32_t node, StepGrowth::Group& g) {
    const auto frames = stacks.framesOf(node);
    int64_t outermost_module = -1;
    for (size_t i = 0; i < frames.size(); ++i) {
        const auto kind = stacks.frame(frames[i]).kind;
        if (kind == FrameKind::Module || kind == FrameKind::BackwardOf) {
            outermost_module = int64_t(i);
            break;
        }
    }
    int64_t made = -1;
    int64_t called = -1;
    for (size_t i = frames.size(); i-- > 0;) {
        const auto& f = stacks.frame(frames[i]);
        if (f.kind != FrameKind::Other || f.file.empty()) {
            continue;
        }
        if (made < 0) {
            made = int64_t(i);
        }
        // A module's own forward (a Python frame "Net.forward") is recorded next to its module
        // frame: the caller is the frame above it.
        const bool forward =
            f.name.size() > 8 && f.name.compare(f.name.size() - 8, 8, ".forward") == 0;
        if (called < 0 && outermost_module >= 0 && int64_t(i) < outermost_module && !forward) {
            called = int64_t(i);
        }
    }
    if (made >= 0) {
        g.made_at = sourced(stacks.frame(frames[size_t(made)]));
    }
    if (called >= 0 && called != made) {
        g.called_from = sourced(stacks.frame(frames[size_t(called)]));
    }
    g.op = TraceSummary::operatorOf(stacks, node);
}

StepGrowth::Group classify(std::string name, const GrowthAccumulator& acc, int32_t complete) {
    StepGrowth::Group g;
    g.name = std::move(name);
    g.allocations = acc.allocations;
    const int32_t last_judged = complete - 1;
    for (int32_t s = 1; s <= last_judged; ++s) {
        if (acc.bytes[size_t(s)] <= 0 && acc.count[size_t(s)] == 0) {
            continue;
        }
        g.first_step = g.first_step == 0 ? s : g.first_step;
        g.last_step = s;
        ++g.steps;
        g.kept_bytes += acc.bytes[size_t(s)];
        g.kept_count += acc.count[size_t(s)];
    }
    const bool last_two =
        acc.count[size_t(last_judged)] > 0 && acc.count[size_t(last_judged - 1)] > 0;
    if (g.last_step == last_judged && (last_two || g.steps >= 3)) {
        g.trend = StepGrowth::Trend::Grows;
        g.from_step = g.first_step;
        const int64_t span = last_judged - g.first_step + 1;
        g.bytes_per_step = g.kept_bytes / span;
        g.count_per_step = (g.kept_count + span - 1) / span;
    } else {
        g.trend = g.steps >= 2 && g.last_step < last_judged ? StepGrowth::Trend::Stopped
                                                            : StepGrowth::Trend::Once;
        g.bytes_per_step = g.steps > 0 ? g.kept_bytes / g.steps : 0;
        g.count_per_step = g.steps > 0 ? (g.kept_count + g.steps - 1) / g.steps : 0;
    }
    return g;
}

void order(std::vector<StepGrowth::Group>& groups) {
    std::stable_sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
        if (a.trend != b.trend) {
            return int(a.trend) < int(b.trend);  // Grows, Stopped, Once
        }
        if (a.trend == StepGrowth::Trend::Grows && a.bytes_per_step != b.bytes_per_step) {
            return a.bytes_per_step > b.bytes_per_step;
        }
        return a.kept_bytes > b.kept_bytes;
    });
}

std::string plural(int64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string placeText(const StepGrowth::Group& g) {
    std::string out;
    if (!g.made_at.empty()) {
        out = "made at " + g.made_at;
        if (!g.called_from.empty()) {
            out += ", called from " + g.called_from;
        }
    } else {
        out = "made by " + (g.op.empty() ? g.name : g.op);
    }
    return out;
}

nlohmann::json groupJson(const StepGrowth::Group& g) {
    return {{"name", g.name},
            {"made_at", g.made_at},
            {"called_from", g.called_from},
            {"op", g.op},
            {"trend", StepGrowth::trendId(g.trend)},
            {"first_step", g.first_step},
            {"last_step", g.last_step},
            {"steps", g.steps},
            {"from_step", g.from_step},
            {"bytes_per_step", g.bytes_per_step},
            {"allocations_per_step", g.count_per_step},
            {"kept_bytes", g.kept_bytes},
            {"kept_allocations", g.kept_count}};
}

}  // namespace

StepGrowth StepGrowth::analyze(const Trace& trace) {
    StepGrowth out;
    const auto& ev = trace.events;
    const size_t n = ev.count();
    int32_t max_step = 0;
    ev.step.forEach(0, n, [&max_step](int32_t s) { max_step = std::max(max_step, s); });
    if (max_step < 1) {
        return out;
    }
    std::vector<int64_t> end(size_t(max_step) + 1, -1);
    bool last_has_optimizer = false;
    PackedReader steps(ev.step);
    PackedReader phases(ev.phase);
    for (size_t i = 0; i < n; ++i) {
        const int32_t s = steps[i];
        if (s < 0) {
            continue;
        }
        end[size_t(s)] = std::max(end[size_t(s)], int64_t(i));
        last_has_optimizer |= s == max_step && phases[i] == uint8_t(Phase::Optimizer);
    }
    // The last step is complete when it reached its optimizer step; otherwise it is what ran
    // after the last one (a Python program's evaluation, its teardown).
    const int32_t complete = last_has_optimizer ? max_step : max_step - 1;
    out.m_complete = complete;
    for (int32_t s = 1; s <= max_step; ++s) {
        if (end[size_t(s)] < 0) {
            end[size_t(s)] = end[size_t(s - 1)];  // a step that made no event ends where it began
        }
    }
    out.m_steps.resize(size_t(std::max(complete, 0)));
    for (int32_t s = 1; s <= complete; ++s) {
        auto& row = out.m_steps[size_t(s - 1)];
        row.step = s;
        row.end_event = end[size_t(s)];
        row.floor_bytes = row.end_event >= 0 ? ev.allocated[size_t(row.end_event)] : 0;
    }
    if (complete < 1) {
        return out;
    }
    const int64_t last_end = end[size_t(complete)];
    std::map<uint32_t, GrowthAccumulator> by_stack;
    std::map<std::string, GrowthAccumulator> by_module;
    auto add = [&](GrowthAccumulator& acc, int32_t s, int64_t size, int64_t index) {
        if (acc.bytes.empty()) {
            acc.bytes.assign(size_t(complete) + 1, 0);
            acc.count.assign(size_t(complete) + 1, 0);
        }
        acc.bytes[size_t(s)] += size;
        acc.count[size_t(s)] += 1;
        acc.allocations.push_back(index);
    };
    const auto& allocations = trace.allocations();
    for (size_t a = 0; a < allocations.size(); ++a) {
        const auto& al = allocations[a];
        if (al.alloc_event < 0 || size_t(al.alloc_event) >= n || expectedToLive(al.category)) {
            continue;
        }
        const int32_t s = ev.step[size_t(al.alloc_event)];
        if (s < 1 || s > complete) {
            continue;
        }
        auto& row = out.m_steps[size_t(s - 1)];
        row.made_bytes += al.size;
        if (s == complete) {
            continue;  // no later step to outlive
        }
        if (al.free_event < 0 || al.free_event > end[size_t(s + 1)]) {
            row.kept_next_bytes += al.size;
        }
        if (al.free_event >= 0 && al.free_event <= last_end) {
            continue;
        }
        row.kept_last_bytes += al.size;
        row.kept_last_count += 1;
        const uint32_t stack = ev.stack[size_t(al.alloc_event)];
        add(by_stack[stack], s, al.size, int64_t(a));
        add(by_module[ModuleTable::moduleOfStack(trace.stacks, stack)], s, al.size, int64_t(a));
    }
    if (complete < 3) {
        return out;  // TooFewSteps: fewer than two judged steps
    }
    for (const auto& [stack, acc] : by_stack) {
        auto g = classify(trace.stacks.describe(stack), acc, complete);
        g.stack = stack;
        placeOf(trace.stacks, stack, g);
        out.m_byStack.push_back(std::move(g));
    }
    for (const auto& [module, acc] : by_module) {
        out.m_byModule.push_back(
            classify(module.empty() ? std::string("(no module)") : module, acc, complete));
    }
    order(out.m_byStack);
    order(out.m_byModule);
    bool stopped = false;
    for (const auto& g : out.m_byStack) {
        if (g.trend == Trend::Grows) {
            out.m_bytesPerStep += g.bytes_per_step;
            out.m_fromStep =
                out.m_fromStep == 0 ? g.from_step : std::min(out.m_fromStep, g.from_step);
        }
        stopped |= g.trend == Trend::Stopped;
    }
    out.m_verdict = out.m_bytesPerStep > 0 ? Verdict::Grows
                    : stopped              ? Verdict::Stopped
                                           : Verdict::Steady;
    return out;
}

StepGrowth::Span StepGrowth::span(Trend trend) const {
    Span span;
    for (const auto& g : m_byStack) {
        if (g.trend == trend) {
            span.kept_bytes += g.kept_bytes;
            span.count_per_step += g.count_per_step;
            span.first_step =
                span.first_step == 0 ? g.first_step : std::min(span.first_step, g.first_step);
            span.last_step = std::max(span.last_step, g.last_step);
            span.top = span.top == nullptr ? &g : span.top;
        }
    }
    return span;
}

std::string StepGrowth::verdictId(Verdict verdict) {
    static const char* const kIds[] = {"too_few_steps", "steady", "grows",
                                       "stopped"};  // enum order
    return kIds[int(verdict)];
}

std::string StepGrowth::trendId(Trend trend) {
    static const char* const kIds[] = {"grows", "stopped", "once"};  // enum order
    return kIds[int(trend)];
}

std::string StepGrowth::verdictText() const {
    std::ostringstream out;
    switch (m_verdict) {
        case Verdict::TooFewSteps:
            out << "growth across steps: " << plural(m_complete, "complete step", "complete steps")
                << ", too few to tell (it needs 3)";
            break;
        case Verdict::Steady: {
            out << "does not grow: what each step makes is freed by the end of the next one";
            if (!m_steps.empty()) {
                out << " (end-of-step floor " << formatBytes(m_steps.back().floor_bytes) << ")";
            }
            if (const Span once = span(Trend::Once); once.kept_bytes > 0) {
                out << "; " << formatBytes(once.kept_bytes) << " made in step " << once.first_step
                    << " stays to the end (made once)";
            }
            break;
        }
        case Verdict::Grows: {
            const Span grows = span(Trend::Grows);
            out << "grows " << formatBytes(m_bytesPerStep) << " a step from step " << m_fromStep
                << ": " << plural(grows.count_per_step, "allocation", "allocations")
                << " a step kept to the last step (" << m_complete << ")";
            if (grows.top != nullptr) {
                out << ", the most " << placeText(*grows.top) << " ("
                    << formatBytes(grows.top->bytes_per_step) << " a step)";
            }
            break;
        }
        case Verdict::Stopped: {
            const Span stopped = span(Trend::Stopped);
            out << "grew " << formatBytes(stopped.kept_bytes) << " over steps "
                << stopped.first_step << "-" << stopped.last_step << ", then stopped growing";
            if (stopped.top != nullptr) {
                out << "; the most " << placeText(*stopped.top);
            }
            break;
        }
    }
    return out.str();
}

std::string StepGrowth::toText(size_t top) const {
    std::ostringstream out;
    out << "Growth across steps: " << verdictText() << ".\n";
    if (m_verdict == Verdict::TooFewSteps) {
        return out.str();
    }
    auto list = [&](Trend trend, const char* title) {
        size_t shown = 0;
        for (const auto& g : m_byStack) {
            if (g.trend != trend || shown == top) {
                continue;
            }
            if (shown++ == 0) {
                out << title << "\n";
            }
            out << "  " << formatBytes(g.bytes_per_step) << " a step ("
                << plural(g.count_per_step, "allocation", "allocations") << ") in steps "
                << g.first_step << "-" << g.last_step << ": " << placeText(g);
            if (!g.op.empty()) {
                out << " [" << g.op << "]";
            }
            out << "\n";
        }
    };
    list(Trend::Grows, "Growing, by the stack that made it:");
    list(Trend::Stopped, "Grew, then stopped:");
    out << "Step  end-of-step floor  made (not params/grads/state)  kept to next  kept to last\n";
    for (const auto& r : m_steps) {
        char line[160];
        std::snprintf(line, sizeof line, "%4d  %17s  %29s  %12s  %12s\n", r.step,
                      formatBytes(r.floor_bytes).c_str(), formatBytes(r.made_bytes).c_str(),
                      r.step < m_complete ? formatBytes(r.kept_next_bytes).c_str() : "-",
                      r.step < m_complete ? formatBytes(r.kept_last_bytes).c_str() : "-");
        out << line;
    }
    return out.str();
}

nlohmann::json StepGrowth::toJson(size_t top) const {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& r : m_steps) {
        nlohmann::json row = {{"step", r.step},
                              {"end_event", r.end_event},
                              {"floor_bytes", r.floor_bytes},
                              {"made_bytes", r.made_bytes}};
        if (r.step < m_complete) {
            row["kept_next_bytes"] = r.kept_next_bytes;
            row["kept_last_bytes"] = r.kept_last_bytes;
            row["kept_last_allocations"] = r.kept_last_count;
        }
        steps.push_back(std::move(row));
    }
    auto groups = [&](const std::vector<Group>& list) {
        nlohmann::json out = nlohmann::json::array();
        for (size_t i = 0; i < list.size() && i < top; ++i) {
            out.push_back(groupJson(list[i]));
        }
        return out;
    };
    return {{"verdict", verdictId(m_verdict)}, {"text", verdictText()},
            {"complete_steps", m_complete},    {"bytes_per_step", m_bytesPerStep},
            {"from_step", m_fromStep},         {"steps", std::move(steps)},
            {"by_stack", groups(m_byStack)},   {"by_module", groups(m_byModule)}};
}

}  // namespace memscope
