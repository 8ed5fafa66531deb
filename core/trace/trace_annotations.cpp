#include "trace/trace_annotations.h"

#include <algorithm>
#include <map>

namespace memscope {

namespace {

// Whether a span recorded under `node` is a module's own scope with no module scope around it.
bool isTopLevelModule(const StackTable& stacks, uint32_t node) {
    if (node == StackTable::kEmpty || node >= stacks.nodeCount() ||
        stacks.frame(stacks.frameOf(node)).kind != FrameKind::Module) {
        return false;
    }
    for (uint32_t up = stacks.parent(node); up != StackTable::kEmpty; up = stacks.parent(up)) {
        if (stacks.frame(stacks.frameOf(up)).kind == FrameKind::Module) {
            return false;
        }
    }
    return true;
}

}  // namespace

std::vector<TraceAnnotation> TraceAnnotations::fromTrace(const Trace& trace) {
    std::vector<TraceAnnotation> out;
    // Steps and phases.
    std::map<int32_t, std::pair<int64_t, int64_t>> steps;
    std::vector<std::pair<int64_t, int64_t>> backward;
    for (const PhaseInterval& p : trace.phases) {
        if (p.end_ns < p.begin_ns) {
            continue;
        }
        if (p.phase != Phase::Init && p.phase != Phase::Other) {
            out.push_back({toString(p.phase), TraceAnnotation::Kind::Phase, p.begin_ns, p.end_ns});
        }
        if (p.phase == Phase::Backward) {
            backward.emplace_back(p.begin_ns, p.end_ns);
        }
        if (p.step > 0) {
            auto [it, inserted] = steps.try_emplace(p.step, p.begin_ns, p.end_ns);
            if (!inserted) {
                it->second.first = std::min(it->second.first, p.begin_ns);
                it->second.second = std::max(it->second.second, p.end_ns);
            }
        }
    }
    for (const auto& [step, range] : steps) {
        out.push_back({"step " + std::to_string(step), TraceAnnotation::Kind::Step, range.first,
                       range.second});
    }
    // Recomputations: top-level module spans inside a backward phase.
    std::sort(backward.begin(), backward.end());
    if (!backward.empty()) {
        std::vector<uint8_t> top_level(trace.stacks.nodeCount(), 2);  // 2: not known yet
        for (const Span& span : trace.spans) {
            if (span.stack >= top_level.size()) {
                continue;
            }
            uint8_t& known = top_level[span.stack];
            if (known == 2) {
                known = isTopLevelModule(trace.stacks, span.stack) ? 1 : 0;
            }
            if (!known) {
                continue;
            }
            auto it = std::upper_bound(backward.begin(), backward.end(),
                                       std::make_pair(span.begin_ns, INT64_MAX));
            if (it == backward.begin()) {
                continue;
            }
            --it;
            if (span.begin_ns >= it->first && span.end_ns <= it->second) {
                const Frame& frame = trace.stacks.frame(trace.stacks.frameOf(span.stack));
                out.push_back({"recompute " + frame.name, TraceAnnotation::Kind::Recompute,
                               span.begin_ns, span.end_ns});
            }
        }
    }
    // Imported.
    const auto found =
        trace.summary.is_object() ? trace.summary.find(kSummaryKey) : trace.summary.end();
    if (found != trace.summary.end() && found->is_array()) {
        for (const auto& a : *found) {
            if (!a.is_object() || !a.contains("name") || !a["name"].is_string() ||
                !a.contains("begin_ns") || !a["begin_ns"].is_number_integer() ||
                !a.contains("end_ns") || !a["end_ns"].is_number_integer()) {
                continue;  // written by us; a damaged entry is skipped, not fatal
            }
            const int64_t begin = a["begin_ns"].get<int64_t>();
            const int64_t end = std::max(begin, a["end_ns"].get<int64_t>());
            out.push_back({a["name"].get<std::string>(), TraceAnnotation::Kind::User, begin, end});
        }
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const TraceAnnotation& a, const TraceAnnotation& b) {
                         return a.kind != b.kind ? a.kind < b.kind : a.begin_ns < b.begin_ns;
                     });
    return out;
}

}  // namespace memscope
