#include "interchange/phase_inference.h"

#include "interchange/frame_cleaner.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <limits>
#include <optional>

namespace memscope {

namespace {

// Regions of one meaning, queried at times that never decrease: which one is innermost (the
// latest begun of those still open) at each time.
class RegionSweep {
  public:
    struct Item {
        int64_t begin_ns;
        int64_t end_ns;
        int32_t value;
    };
    explicit RegionSweep(std::vector<Item> items) : m_items(std::move(items)) {
        std::stable_sort(m_items.begin(), m_items.end(),
                         [](const Item& a, const Item& b) { return a.begin_ns < b.begin_ns; });
    }
    bool empty() const { return m_items.empty(); }
    // The innermost region's value at time t, or nullopt.
    std::optional<int32_t> at(int64_t t) {
        while (m_next < m_items.size() && m_items[m_next].begin_ns <= t) {
            m_open.push_back(m_next++);
        }
        m_open.erase(std::remove_if(m_open.begin(), m_open.end(),
                                    [&](size_t i) { return m_items[i].end_ns <= t; }),
                     m_open.end());
        if (m_open.empty()) {
            return std::nullopt;
        }
        return m_items[m_open.back()].value;
    }
    // The value of the last region begun at or before t (open or not), or nullopt.
    std::optional<int32_t> lastBegun() const {
        return m_next > 0 ? std::optional<int32_t>(m_items[m_next - 1].value) : std::nullopt;
    }

  private:
    std::vector<Item> m_items;
    std::vector<size_t> m_open;  // in begin order
    size_t m_next = 0;
};

std::vector<std::string> lowerWords(const std::string& name) {
    std::vector<std::string> words;
    std::string word;
    for (const char c : name) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else if (!word.empty()) {
            words.push_back(std::move(word));
            word.clear();
        }
    }
    if (!word.empty()) {
        words.push_back(std::move(word));
    }
    return words;
}

// A non-negative decimal that fits int32 (step numbers), or -1.
int64_t stepNumber(const std::string& text) {
    if (text.empty() || text.size() > 9 || !std::all_of(text.begin(), text.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
        })) {
        return -1;
    }
    return std::strtoll(text.c_str(), nullptr, 10);
}

Phase phaseOfEvidence(uint8_t evidence, std::optional<int32_t> region_phase) {
    if (evidence & FrameCleaner::kBackward) {
        return Phase::Backward;
    }
    if (evidence & FrameCleaner::kOptimizer) {
        return Phase::Optimizer;
    }
    if (region_phase) {
        return static_cast<Phase>(*region_phase);
    }
    if (evidence & FrameCleaner::kForward) {
        return Phase::Forward;
    }
    return Phase::Other;
}

}  // namespace

PhaseInference::Meaning PhaseInference::meaningOf(const std::string& name) {
    Meaning m;
    constexpr const char* profiler_step = "ProfilerStep#";
    if (name.rfind(profiler_step, 0) == 0) {
        const int64_t n = stepNumber(name.substr(13));
        if (n >= 0) {
            m.step = static_cast<int32_t>(n + 1);
        }
        return m;
    }
    if (name.rfind("Optimizer.step#", 0) == 0 || name.rfind("Optimizer.zero_grad#", 0) == 0) {
        m.phase = Phase::Optimizer;
        return m;
    }
    const std::vector<std::string> words = lowerWords(name);
    // Memscope's export of the trainer's phases: "forward step 2".
    if (words.size() == 3 && words[1] == "step" && stepNumber(words[2]) >= 0) {
        if (const auto phase = parsePhase(words[0])) {
            m.phase = *phase;
            m.step = static_cast<int32_t>(stepNumber(words[2]));
            return m;
        }
    }
    int found = 0;
    for (const std::string& w : words) {
        std::optional<Phase> p;
        if (w == "forward" || w == "fwd") {
            p = Phase::Forward;
        } else if (w == "backward" || w == "bwd") {
            p = Phase::Backward;
        } else if (w == "optimizer" || w == "optim") {
            p = Phase::Optimizer;
        }
        if (p && (!m.phase || *m.phase != *p)) {
            m.phase = p;
            ++found;
        }
    }
    if (found != 1) {
        m.phase.reset();  // none, or two phases named: nothing to go by
    }
    return m;
}

std::vector<PhaseInterval> PhaseInference::apply(EventColumns& events,
                                                 const std::vector<uint8_t>& evidence,
                                                 const std::vector<Region>& regions) {
    const size_t n = events.count();
    std::vector<RegionSweep::Item> phase_items, step_items;
    for (const Region& r : regions) {
        const Meaning m = meaningOf(r.name);
        if (m.phase) {
            phase_items.push_back({r.begin_ns, std::max(r.begin_ns, r.end_ns), int32_t(*m.phase)});
        }
        if (m.step) {
            step_items.push_back({r.begin_ns, std::max(r.begin_ns, r.end_ns), *m.step});
        }
    }
    RegionSweep phase_regions(std::move(phase_items));
    RegionSweep step_regions(std::move(step_items));
    const bool step_regions_given = !step_regions.empty();
    // The rules write events at random: they work on plain copies of the two packed columns,
    // which go back packed at the end.
    std::vector<int32_t> steps = events.step.toVector();
    std::vector<uint8_t> phases = events.phase.toVector();

    // Rules 1-4.
    int64_t latest = std::numeric_limits<int64_t>::min();
    bool any_optimizer = false;
    for (size_t i = 0; i < n; ++i) {
        if (steps[i] < 0) {
            continue;  // before the trace began
        }
        latest = std::max(latest, events.time_ns[i]);
        const uint8_t e = i < evidence.size() ? evidence[i] : 0;
        const Phase p = phaseOfEvidence(e, phase_regions.at(latest));
        phases[i] = static_cast<uint8_t>(p);
        any_optimizer = any_optimizer || p == Phase::Optimizer;
        if (step_regions_given) {
            const auto inside = step_regions.at(latest);
            const auto before = step_regions.lastBegun();
            steps[i] = inside ? *inside : before ? *before : 0;
        }
    }
    // Rule 5: an unplaced event between two placed ones of the same phase. Rule 6: one after
    // an event placed in forward and before one placed in backward (the loss) is forward.
    {
        std::vector<uint8_t> next(n, uint8_t(Phase::Other));
        uint8_t after = uint8_t(Phase::Other);
        for (size_t i = n; i-- > 0;) {
            if (steps[i] < 0) {
                continue;
            }
            next[i] = after;
            if (phases[i] != uint8_t(Phase::Other)) {
                after = phases[i];
            }
        }
        uint8_t before = uint8_t(Phase::Other);
        for (size_t i = 0; i < n; ++i) {
            if (steps[i] < 0) {
                continue;
            }
            if (phases[i] != uint8_t(Phase::Other)) {
                before = phases[i];
            } else if (before != uint8_t(Phase::Other) && before == next[i]) {
                phases[i] = before;
            } else if (before == uint8_t(Phase::Forward) && next[i] == uint8_t(Phase::Backward)) {
                phases[i] = uint8_t(Phase::Forward);
            }
        }
    }
    // Steps from optimizer-step boundaries.
    if (!step_regions_given) {
        int32_t step = any_optimizer ? 1 : 0;
        bool optimizer_seen = false;
        for (size_t i = 0; i < n && any_optimizer; ++i) {
            if (steps[i] < 0) {
                continue;
            }
            const auto p = static_cast<Phase>(phases[i]);
            if (p == Phase::Optimizer) {
                optimizer_seen = true;
            } else if (p == Phase::Forward && optimizer_seen) {
                ++step;
                optimizer_seen = false;
            }
            steps[i] = step;
        }
        if (!any_optimizer) {
            for (size_t i = 0; i < n; ++i) {
                if (steps[i] >= 0) {
                    steps[i] = 0;
                }
            }
        }
    }
    // Phase intervals.
    std::vector<PhaseInterval> intervals;
    int64_t last_time = 0;
    for (size_t i = 0; i < n; ++i) {
        if (steps[i] < 0) {
            continue;
        }
        const auto p = static_cast<Phase>(phases[i]);
        if (p != Phase::Other) {
            if (intervals.empty() || intervals.back().phase != p ||
                intervals.back().step != steps[i]) {
                if (!intervals.empty()) {
                    intervals.back().end_ns =
                        std::max(intervals.back().begin_ns, events.time_ns[i]);
                }
                intervals.push_back({p, steps[i], events.time_ns[i], events.time_ns[i]});
            }
            last_time = events.time_ns[i];
            intervals.back().end_ns = std::max(intervals.back().end_ns, last_time);
        }
    }
    assignValues(events.step, std::move(steps));
    assignValues(events.phase, std::move(phases));
    return intervals;
}

}  // namespace memscope
