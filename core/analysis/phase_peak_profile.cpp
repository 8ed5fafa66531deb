#include "analysis/phase_peak_profile.h"

#include "model/input_error.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace memscope {

namespace {

const char* phaseKeyName(Phase phase) {
    switch (phase) {
        case Phase::Forward:
            return "forward";
        case Phase::Backward:
            return "backward";
        case Phase::Optimizer:
            return "optimizer";
        default:
            return nullptr;
    }
}

bool allDigits(const std::string& s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

// The events of one (step, phase) window, as indexes into the event columns.
struct PhaseWindow {
    std::string key;  // "first/forward"
    int32_t step = 0;
    Phase phase = Phase::Forward;
    int64_t first_layer_event = -1;
    int64_t last_layer_event = -1;
};

}  // namespace

PhasePeakProfile::Place PhasePeakProfile::placeOf(const StackTable& stacks, uint32_t stack) {
    Place place;
    std::string module;
    bool have_module = false;
    // The operator: the outermost operator or autograd node inside the innermost module (the
    // call the program made: aten::einsum rather than the aten::bmm inside it).
    for (uint32_t node = stack; node != StackTable::kEmpty && !have_module;
         node = stacks.parent(node)) {
        const Frame& f = stacks.frame(stacks.frameOf(node));
        if (f.kind == FrameKind::Module || f.kind == FrameKind::BackwardOf) {
            module = f.name;
            static const std::string kBackwardOf = "backward of ";
            if (module.compare(0, kBackwardOf.size(), kBackwardOf) == 0) {
                module.erase(0, kBackwardOf.size());
            }
            have_module = true;
        } else if (f.kind == FrameKind::Operator || f.kind == FrameKind::BackwardNode) {
            place.op = f.name;
        }
    }
    // "Model.layers.3.attn.q_proj": the first numbered component is the layer; the root's name
    // (the model's class) is dropped.
    std::vector<std::string> parts;
    size_t start = 0;
    while (have_module && start <= module.size()) {
        const size_t dot = module.find('.', start);
        parts.push_back(module.substr(start, dot == std::string::npos ? dot : dot - start));
        if (dot == std::string::npos) {
            break;
        }
        start = dot + 1;
    }
    size_t from = 1;
    for (size_t i = 1; i < parts.size(); ++i) {
        if (allDigits(parts[i]) && parts[i].size() < 10) {
            place.layer = std::stoll(parts[i]);
            from = i + 1;
            break;
        }
    }
    for (size_t i = from; i < parts.size(); ++i) {
        place.module += (place.module.empty() ? "" : ".") + parts[i];
    }
    if (place.module.empty()) {
        place.module = "-";
    }
    return place;
}

PhasePeaks PhasePeakProfile::measure(const Trace& trace) {
    const auto& ev = trace.events;
    const size_t n = ev.count();
    // The last step with a training phase (a program's events after its last optimizer step
    // count as one more step, with none).
    int32_t last_step = 0;
    for (size_t i = 0; i < n; ++i) {
        if (phaseKeyName(static_cast<Phase>(ev.phase[i])) != nullptr) {
            last_step = std::max(last_step, ev.step[i]);
        }
    }
    if (last_step < 1) {
        throw InputError("the run recorded no training step");
    }
    PhasePeaks out;
    out.steps = last_step;

    // Places by stack node, computed once.
    std::unordered_map<uint32_t, Place> places;
    auto placeFor = [&](uint32_t stack) -> const Place& {
        auto it = places.find(stack);
        if (it == places.end()) {
            it = places.emplace(stack, placeOf(trace.stacks, stack)).first;
        }
        return it->second;
    };

    // Windows: step 1 ("first") and the last step ("steady"), when it is another.
    auto windowKey = [&](int32_t step, Phase phase) -> std::string {
        const char* name = phaseKeyName(phase);
        if (name == nullptr) {
            return {};
        }
        if (step == 1) {
            return std::string("first/") + name;
        }
        if (step == last_step && last_step > 1) {
            return std::string("steady/") + name;
        }
        return {};
    };
    std::map<std::string, PhaseWindow> windows;
    for (size_t i = 0; i < n; ++i) {
        if (static_cast<EventKind>(ev.kind[i]) != EventKind::Alloc) {
            continue;
        }
        const auto phase = static_cast<Phase>(ev.phase[i]);
        const std::string key = windowKey(ev.step[i], phase);
        if (key.empty()) {
            continue;
        }
        auto& w = windows[key];
        w.key = key;
        w.step = ev.step[i];
        w.phase = phase;
        const Place& p = placeFor(ev.stack[i]);
        if (p.layer >= 0) {
            out.layers = std::max(out.layers, p.layer + 1);
            if (w.first_layer_event < 0) {
                w.first_layer_event = int64_t(i);
            }
            w.last_layer_event = int64_t(i);
        }
    }
    // Outside the layers, how often each place allocates before and after them: what follows
    // the layers (the optimizer's per-parameter work for the parameters after the last layer's)
    // is the same tensor counted from the end at every number of layers.
    std::unordered_map<std::string, int64_t> totals;
    for (size_t i = 0; i < n; ++i) {
        if (static_cast<EventKind>(ev.kind[i]) != EventKind::Alloc) {
            continue;
        }
        const std::string key = windowKey(ev.step[i], static_cast<Phase>(ev.phase[i]));
        if (key.empty()) {
            continue;
        }
        const auto& w = windows[key];
        const Place& p = placeFor(ev.stack[i]);
        if (p.layer < 0) {
            const char* position = w.first_layer_event < 0            ? "outside"
                                   : int64_t(i) < w.first_layer_event ? "before"
                                                                      : "after";
            ++totals[key + "/" + position + ":" + p.module + "|" + p.op];
        }
    }
    if (windows.count("first/forward") == 0) {
        throw InputError("the run's first step has no forward phase with allocations");
    }

    // One pass: live bytes per category, and each window's and region's highest total.
    const auto& allocation_of = trace.allocationOfEvent();
    const auto& allocations = trace.allocations();
    std::array<int64_t, kCategoryCount> live{};
    std::unordered_map<std::string, int64_t> occurrences;
    auto record = [&](PhasePeaks::Peak& peak, int64_t total, bool fresh) {
        if (fresh || total > peak.bytes) {
            peak.bytes = total;
            peak.by_category = live;
            int64_t sum = 0;
            for (const auto b : live) {
                sum += b;
            }
            // Bytes alive before the recording began (none for a recorded run) stay Unknown.
            peak.by_category[size_t(Category::Unknown)] += total - sum;
        }
    };
    for (size_t i = 0; i < n; ++i) {
        const auto kind = static_cast<EventKind>(ev.kind[i]);
        if (kind != EventKind::Alloc && kind != EventKind::Free) {
            continue;
        }
        const int64_t a = i < allocation_of.size() ? allocation_of[i] : -1;
        const Category category = a >= 0 ? allocations[size_t(a)].category : Category::Unknown;
        live[size_t(category)] += ev.size[i];
        if (kind != EventKind::Alloc) {
            continue;
        }
        const std::string key = windowKey(ev.step[i], static_cast<Phase>(ev.phase[i]));
        if (key.empty()) {
            continue;
        }
        const auto& w = windows[key];
        const int64_t total = ev.allocated[i];
        {
            const bool fresh = out.phases.count(key) == 0;
            record(out.phases[key], total, fresh);
        }
        const Place& p = placeFor(ev.stack[i]);
        std::vector<std::string> positions;
        if (p.layer >= 0) {
            if (p.layer == 0) {
                positions.emplace_back("first");
            }
            if (p.layer == out.layers - 1) {
                positions.emplace_back("last");
            }
        } else if (w.first_layer_event < 0) {
            positions.emplace_back("outside");
        } else {
            positions.emplace_back(int64_t(i) < w.first_layer_event ? "before" : "after");
        }
        if (positions.empty()) {
            continue;
        }
        // The k-th allocation of a place: the same tensor of the program at every size. Only
        // one that a free follows can be a peak (the next allocation adds to it).
        bool local_peak = true;
        for (size_t j = i + 1; j < n; ++j) {
            const auto next = static_cast<EventKind>(ev.kind[j]);
            if (next == EventKind::Alloc) {
                local_peak = false;
                break;
            }
            if (next == EventKind::Free) {
                break;
            }
        }
        auto& regions = out.regions[key];
        for (const auto& position : positions) {
            const std::string place = position + ":" + p.module + "|" + p.op;
            const int64_t k = occurrences[key + "/" + place]++;
            if (!local_peak) {
                continue;
            }
            const std::string name = place + "#" + std::to_string(k);
            const bool fresh = regions.count(name) == 0;
            record(regions[name], total, fresh);
            if (p.layer < 0) {
                const auto all = totals.find(key + "/" + place);
                if (all != totals.end()) {
                    const std::string from_end = place + "#-" + std::to_string(all->second - k);
                    const bool fresh_end = regions.count(from_end) == 0;
                    record(regions[from_end], total, fresh_end);
                }
            }
        }
    }
    return out;
}

}  // namespace memscope
