#include "explain/oom_explanation.h"

#include "explain/module_table.h"
#include "explain/segment_state.h"
#include "explain/stack_attribution.h"
#include "run/run_summary.h"

#include <algorithm>
#include <sstream>

namespace memscope {

namespace {

const std::string kOomBackwardOfPrefix = "backward of ";
// The ModuleTable rows an explanation keeps: the model and its direct sub-modules.
constexpr int kOomModuleDepth = 1;
constexpr size_t kOomTextCategories = 4;
constexpr size_t kOomTextModules = 6;

// "4,063,232 B": the exact count beside formatBytes' rounded one.
std::string oomExactBytes(int64_t bytes) {
    std::string digits = std::to_string(bytes < 0 ? -bytes : bytes);
    for (int i = int(digits.size()) - 3; i > 0; i -= 3) {
        digits.insert(size_t(i), ",");
    }
    return (bytes < 0 ? "-" : "") + digits + " B";
}

std::string oomBytes(int64_t bytes) {
    return bytes < 1024 && bytes > -1024 ? oomExactBytes(bytes)
                                         : formatBytes(bytes) + " (" + oomExactBytes(bytes) + ")";
}

int64_t oomNumber(const nlohmann::json& j, const char* key, int64_t fallback = 0) {
    const auto it = j.find(key);
    return it != j.end() && it->is_number_integer() ? it->get<int64_t>() : fallback;
}

std::string oomString(const nlohmann::json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

const char* OomExplanation::verdictId(Verdict verdict) {
    switch (verdict) {
        case Verdict::Capacity:
            return "capacity";
        case Verdict::Fragmentation:
            return "fragmentation";
        case Verdict::Undetermined:
            break;
    }
    return "undetermined";
}

const char* OomExplanation::fragmentationSetting() {
    return "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True";
}

std::optional<OomExplanation> OomExplanation::explain(const Trace& trace) {
    const auto& ev = trace.events;
    int64_t event = -1;
    for (size_t i = 0; i < ev.count(); ++i) {
        if (static_cast<EventKind>(ev.kind[i]) == EventKind::Oom) {
            event = int64_t(i);
            break;
        }
    }
    if (event < 0) {
        return std::nullopt;
    }
    const auto e = size_t(event);
    OomExplanation x;

    // The request.
    Request& r = x.m_request;
    r.event = event;
    r.bytes = std::max<int64_t>(0, ev.size[e]);
    r.device = ev.device[e];
    r.step = ev.step[e];
    r.phase = static_cast<Phase>(ev.phase[e]) <= Phase::Other ? static_cast<Phase>(ev.phase[e])
                                                              : Phase::Other;
    r.time_ns = ev.time_ns[e];
    const uint32_t node = ev.stack[e];
    if (node >= trace.stacks.nodeCount()) {
        r.stack_unknown = true;
    } else {
        const StackAttribution attribution(trace.stacks);
        const int64_t f = attribution.moduleFrame(node);
        if (f >= 0) {
            const Frame& frame = trace.stacks.frame(uint32_t(f));
            r.in_backward =
                frame.kind == FrameKind::BackwardOf &&
                frame.name.compare(0, kOomBackwardOfPrefix.size(), kOomBackwardOfPrefix) == 0;
            r.module = r.in_backward ? frame.name.substr(kOomBackwardOfPrefix.size()) : frame.name;
        }
        r.op = attribution.operatorOf(node);
        r.stack = trace.stacks.describe(node);
    }

    // The device at that moment.
    x.m_allocated = std::max<int64_t>(0, ev.allocated[e]);
    int64_t capacity = ev.reserved[e] > 0 ? ev.reserved[e] : trace.meta.capacity_bytes;
    capacity = std::max<int64_t>(0, capacity);
    x.m_capacityKnown = capacity > 0;
    if (!trace.segments().empty()) {
        const SegmentState state = SegmentState::at(trace, event);
        int64_t reserved = 0;
        int64_t regions = 0;
        for (const auto& seg : state.segments()) {
            if (seg.device != r.device) {
                continue;
            }
            reserved += seg.size;
            for (const auto& gap : seg.gaps) {
                x.m_freeInSegments += gap.size;
                x.m_largestFree = std::max(x.m_largestFree, gap.size);
                ++regions;
            }
        }
        x.m_reserved = reserved;
        capacity = std::max(capacity, reserved);
        x.m_unreserved = capacity - reserved;
        if (x.m_unreserved > 0) {
            x.m_largestFree = std::max(x.m_largestFree, x.m_unreserved);
            ++regions;
        }
        x.m_largestFree = std::max<int64_t>(0, x.m_largestFree);
        x.m_freeRegions = regions;
        x.m_free = x.m_freeInSegments + x.m_unreserved;
    } else {
        x.m_free = std::max<int64_t>(0, capacity - x.m_allocated);
        x.m_unreserved = x.m_free;
    }
    x.m_capacity = capacity;
    if (!x.m_capacityKnown) {
        x.m_verdict = Verdict::Undetermined;
    } else if (x.m_free < r.bytes) {
        x.m_verdict = Verdict::Capacity;
    } else if (x.hasSegments() && x.m_largestFree < r.bytes) {
        x.m_verdict = Verdict::Fragmentation;
    } else {
        x.m_verdict = Verdict::Undetermined;
    }

    // What filled it.
    const auto bytes = trace.bytesByCategoryAt(e);
    for (int c = 0; c < kCategoryCount; ++c) {
        if (bytes[size_t(c)] > 0) {
            x.m_categories.emplace_back(toString(static_cast<Category>(c)), bytes[size_t(c)]);
        }
    }
    std::stable_sort(x.m_categories.begin(), x.m_categories.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    const ModuleTable table = ModuleTable::compute(trace, event);
    x.m_alive = table.aliveBytes();
    for (const auto& row : table.rows()) {
        if (row.depth <= kOomModuleDepth && row.held() > 0) {
            x.m_modules.push_back({row.path, row.name, row.depth, row.held()});
        }
    }
    return x;
}

nlohmann::json OomExplanation::toJson() const {
    nlohmann::json categories = nlohmann::json::array();
    for (const auto& [name, bytes] : m_categories) {
        categories.push_back({{"category", name}, {"bytes", bytes}});
    }
    nlohmann::json modules = nlohmann::json::array();
    for (const auto& m : m_modules) {
        modules.push_back(
            {{"path", m.path}, {"name", m.name}, {"depth", m.depth}, {"held_bytes", m.held}});
    }
    const Request& r = m_request;
    return {{"event", r.event},
            {"request",
             {{"bytes", r.bytes},
              {"device", r.device},
              {"step", r.step},
              {"phase", toString(r.phase)},
              {"time_ns", r.time_ns},
              {"module", r.module},
              {"in_backward", r.in_backward},
              {"op", r.op},
              {"stack", r.stack},
              {"stack_unknown", r.stack_unknown}}},
            {"capacity_bytes", m_capacity},
            {"capacity_known", m_capacityKnown},
            {"allocated_bytes", m_allocated},
            {"reserved_bytes", hasSegments() ? nlohmann::json(m_reserved) : nlohmann::json()},
            {"free_bytes", m_free},
            {"free_in_segments_bytes", m_freeInSegments},
            {"unreserved_bytes", m_unreserved},
            {"largest_free_region_bytes", m_largestFree},
            {"free_regions", m_freeRegions},
            {"verdict", verdictId(m_verdict)},
            {"setting", m_verdict == Verdict::Fragmentation ? nlohmann::json(fragmentationSetting())
                                                            : nlohmann::json()},
            {"categories", categories},
            {"alive_bytes", m_alive},
            {"modules", modules}};
}

std::optional<OomExplanation> OomExplanation::fromJson(const nlohmann::json& j) {
    if (!j.is_object()) {
        return std::nullopt;
    }
    OomExplanation x;
    const auto request = j.find("request");
    if (request != j.end() && request->is_object()) {
        const auto& q = *request;
        Request& r = x.m_request;
        r.bytes = oomNumber(q, "bytes");
        r.device = int16_t(std::clamp<int64_t>(oomNumber(q, "device", -1), -1, INT16_MAX));
        r.step = int32_t(std::clamp<int64_t>(oomNumber(q, "step"), INT32_MIN, INT32_MAX));
        r.phase = parsePhase(oomString(q, "phase")).value_or(Phase::Other);
        r.time_ns = oomNumber(q, "time_ns");
        r.module = oomString(q, "module");
        r.in_backward = q.value("in_backward", false);
        r.op = oomString(q, "op");
        r.stack = oomString(q, "stack");
        r.stack_unknown = q.value("stack_unknown", false);
    }
    x.m_request.event = oomNumber(j, "event", -1);
    x.m_capacity = oomNumber(j, "capacity_bytes");
    x.m_capacityKnown = j.value("capacity_known", x.m_capacity > 0);
    x.m_allocated = oomNumber(j, "allocated_bytes");
    x.m_reserved = oomNumber(j, "reserved_bytes", -1);
    x.m_free = oomNumber(j, "free_bytes");
    x.m_freeInSegments = oomNumber(j, "free_in_segments_bytes");
    x.m_unreserved = oomNumber(j, "unreserved_bytes");
    x.m_largestFree = oomNumber(j, "largest_free_region_bytes", -1);
    x.m_freeRegions = oomNumber(j, "free_regions", -1);
    const std::string verdict = oomString(j, "verdict");
    x.m_verdict = verdict == "capacity"        ? Verdict::Capacity
                  : verdict == "fragmentation" ? Verdict::Fragmentation
                                               : Verdict::Undetermined;
    if (const auto c = j.find("categories"); c != j.end() && c->is_array()) {
        for (const auto& item : *c) {
            if (item.is_object()) {
                x.m_categories.emplace_back(oomString(item, "category"), oomNumber(item, "bytes"));
            }
        }
    }
    x.m_alive = oomNumber(j, "alive_bytes");
    if (const auto m = j.find("modules"); m != j.end() && m->is_array()) {
        for (const auto& item : *m) {
            if (item.is_object()) {
                x.m_modules.push_back({oomString(item, "path"), oomString(item, "name"),
                                       int(oomNumber(item, "depth")),
                                       oomNumber(item, "held_bytes")});
            }
        }
    }
    return x;
}

std::string OomExplanation::verdictSentence() const {
    const int64_t need = m_request.bytes;
    std::ostringstream out;
    switch (m_verdict) {
        case Verdict::Capacity:
            out << "Capacity: " << oomBytes(m_free) << " free is less than the " << oomBytes(need)
                << " requested. The memory in use has to shrink (or the device to grow).";
            break;
        case Verdict::Fragmentation:
            out << "Fragmentation: " << oomBytes(m_free) << " free is at least the "
                << oomBytes(need) << " requested, but it lies in " << m_freeRegions
                << " pieces and the largest is " << oomBytes(m_largestFree) << ". "
                << fragmentationSetting()
                << " lets the allocator grow a segment instead of needing one free block that "
                   "large.";
            break;
        case Verdict::Undetermined:
            if (!m_capacityKnown) {
                out << "Undetermined: the run does not record the device's capacity.";
            } else if (!hasSegments()) {
                out << "Undetermined: " << oomBytes(m_free) << " free is at least the "
                    << oomBytes(need)
                    << " requested, and the run has no allocator segments to tell where it lies.";
            } else {
                out << "Undetermined: " << oomBytes(m_free) << " free is at least the "
                    << oomBytes(need) << " requested and a free region of "
                    << oomBytes(m_largestFree)
                    << " exists; the allocator could not use it (another stream's or pool's "
                       "segment, or rounding).";
            }
            break;
    }
    return out.str();
}

std::string OomExplanation::toText() const {
    const Request& r = m_request;
    std::ostringstream out;
    out << "Out of memory explained: step " << r.step << " (" << toString(r.phase) << ") requested "
        << oomBytes(r.bytes) << " on "
        << (r.device < 0 ? std::string("the CPU") : "device " + std::to_string(r.device));
    if (!r.module.empty()) {
        out << ", in " << (r.in_backward ? "backward of " : "") << r.module;
    }
    if (!r.op.empty()) {
        out << " / " << r.op;
    }
    out << ". ";
    if (m_capacityKnown) {
        out << "Capacity " << oomBytes(m_capacity) << ", ";
    } else {
        out << "Capacity not recorded, ";
    }
    out << "allocated " << oomBytes(m_allocated);
    if (hasSegments()) {
        out << ", reserved " << oomBytes(m_reserved) << " (" << oomBytes(m_freeInSegments)
            << " free inside its segments, " << oomBytes(m_unreserved) << " not reserved)";
    }
    out << ": " << oomBytes(m_free) << " free. " << verdictSentence() << "\n";
    if (r.stack_unknown) {
        out << "  Stack: unknown (the event names a stack the run does not have)\n";
    } else if (!r.stack.empty()) {
        out << "  Stack: " << r.stack << "\n";
    }
    if (!m_categories.empty()) {
        out << "  Filled by:";
        for (size_t i = 0; i < m_categories.size() && i < kOomTextCategories; ++i) {
            out << (i == 0 ? " " : ", ") << m_categories[i].first << " "
                << formatBytes(m_categories[i].second);
        }
        if (m_categories.size() > kOomTextCategories) {
            out << ", ...";
        }
        out << "\n";
    } else {
        out << "  Filled by: nothing the run recorded was alive\n";
    }
    size_t shown = 0;
    for (const auto& m : m_modules) {
        if (shown == 0) {
            out << "  Modules at that moment (" << formatBytes(m_alive) << " alive):\n";
        }
        if (shown++ == kOomTextModules) {
            out << "    ...\n";
            break;
        }
        out << "    " << std::string(size_t(std::max(0, m.depth)) * 2, ' ')
            << (m.path.empty() ? "(no module)" : m.path) << "  " << formatBytes(m.held) << "\n";
    }
    return out.str();
}

}  // namespace memscope
