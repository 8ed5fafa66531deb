#include "analysis/aligned_difference.h"

#include "explain/module_table.h"
#include "explain/trace_summary.h"
#include "model/input_error.h"
#include "run/run_summary.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>

namespace memscope {

namespace {

using Sums = std::map<std::string, int64_t>;

struct LiveSums {
    int64_t total = 0;
    Sums category, module, place;
};

LiveSums liveSumsAt(const Trace& trace, int64_t event) {
    LiveSums out;
    const auto& ev = trace.events;
    for (const auto& al : trace.allocations()) {
        const bool born = al.alloc_event < 0 || al.alloc_event <= event;
        const bool alive = al.free_event < 0 || al.free_event > event;
        if (!born || !alive) {
            continue;
        }
        out.total += al.size;
        out.category[toString(al.category)] += al.size;
        const int64_t at = al.event();
        const uint32_t stack = at >= 0 && size_t(at) < ev.count() ? ev.stack[size_t(at)] : 0;
        const std::string module = ModuleTable::moduleOfStack(trace.stacks, stack);
        out.module[module.empty() ? "(no module)" : module] += al.size;
        std::string where = TraceSummary::userFrameOf(trace.stacks, stack);
        if (where.empty()) {
            where = module.empty() ? "(no module)" : module;
        } else if (const auto slash = where.find_last_of('/', where.find(':'));
                   slash != std::string::npos) {
            where.erase(0, slash + 1);  // the file's name, not its folder
        }
        const std::string op = TraceSummary::operatorOf(trace.stacks, stack);
        out.place[op.empty() ? where : where + " [" + op + "]"] += al.size;
    }
    return out;
}

void addRows(std::vector<AlignedDifference::Row>& rows, AlignedDifference::Section section,
             const Sums& a, const Sums& b) {
    std::map<std::string, std::pair<int64_t, int64_t>> both;
    for (const auto& [name, bytes] : a) {
        both[name].first = bytes;
    }
    for (const auto& [name, bytes] : b) {
        both[name].second = bytes;
    }
    std::vector<AlignedDifference::Row> section_rows;
    for (const auto& [name, ab] : both) {
        section_rows.push_back({section, name, ab.first, ab.second});
    }
    std::stable_sort(section_rows.begin(), section_rows.end(), [](const auto& x, const auto& y) {
        return std::llabs(x.delta()) > std::llabs(y.delta());
    });
    rows.insert(rows.end(), section_rows.begin(), section_rows.end());
}

std::string signedBytes(int64_t bytes) {
    return (bytes > 0 ? "+" : bytes < 0 ? "-" : "") + formatBytes(std::llabs(bytes));
}

}  // namespace

AlignedDifference::Moment AlignedDifference::parseMoment(const std::string& text) {
    Moment m;
    m.text = text;
    if (text.empty() || text == "peak") {
        m.text = "peak";
        return m;
    }
    const auto colon = text.find(':');
    const std::string step = text.substr(0, colon);
    char* end = nullptr;
    const long value = std::strtol(step.c_str(), &end, 10);
    if (step.empty() || end == nullptr || *end != '\0' || value < 1 || value > (1L << 30)) {
        throw InputError("--at " + text +
                         ": not a moment (peak, a step such as 3, or STEP:PHASE such as "
                         "3:forward, 3:backward, 3:optimizer)");
    }
    m.step = int32_t(value);
    if (colon != std::string::npos) {
        const auto phase = parsePhase(text.substr(colon + 1));
        if (!phase || *phase == Phase::Init) {
            throw InputError("--at " + text + ": '" + text.substr(colon + 1) +
                             "' is not a phase (forward, backward, optimizer)");
        }
        m.phase = int(*phase);
    }
    return m;
}

int64_t AlignedDifference::eventOf(const Trace& trace, const Moment& moment,
                                   const std::string& run) {
    if (moment.step < 0) {
        const int64_t peak = trace.peakEvent();
        if (peak < 0) {
            throw InputError(run + ": the run has no allocation");
        }
        return peak;
    }
    const auto& ev = trace.events;
    int64_t best = -1;
    int32_t last_step = 0;
    for (size_t i = 0; i < ev.count(); ++i) {
        last_step = std::max(last_step, ev.step[i]);
        const auto kind = EventKind(ev.kind[i]);
        if (ev.step[i] != moment.step || (kind != EventKind::Alloc && kind != EventKind::Free) ||
            (moment.phase >= 0 && ev.phase[i] != uint8_t(moment.phase))) {
            continue;
        }
        if (best < 0 || ev.allocated[i] > ev.allocated[size_t(best)]) {
            best = int64_t(i);
        }
    }
    if (best < 0) {
        throw InputError(run + ": no " +
                         (moment.phase >= 0 ? toString(Phase(moment.phase)) + " in " : "") +
                         "step " + std::to_string(moment.step) + " (the run has steps 1-" +
                         std::to_string(last_step) + ")");
    }
    return best;
}

AlignedDifference AlignedDifference::compute(const Trace& a, const Trace& b, const Moment& moment,
                                             const std::string& name_a, const std::string& name_b) {
    AlignedDifference d;
    d.name_a = name_a;
    d.name_b = name_b;
    d.moment = moment;
    d.event_a = eventOf(a, moment, name_a);
    d.event_b = eventOf(b, moment, name_b);
    const LiveSums sa = liveSumsAt(a, d.event_a);
    const LiveSums sb = liveSumsAt(b, d.event_b);
    d.total_a = sa.total;
    d.total_b = sb.total;
    addRows(d.rows, Section::Category, sa.category, sb.category);
    addRows(d.rows, Section::Module, sa.module, sb.module);
    addRows(d.rows, Section::Place, sa.place, sb.place);
    return d;
}

std::string AlignedDifference::sectionName(Section section) {
    switch (section) {
        case Section::Category:
            return "category";
        case Section::Module:
            return "module";
        case Section::Place:
            return "place";
    }
    return "category";
}

std::string AlignedDifference::toText(size_t top) const {
    std::ostringstream out;
    const std::string where =
        moment.step < 0 ? std::string("each run's peak")
                        : "step " + std::to_string(moment.step) +
                              (moment.phase >= 0 ? ", " + toString(Phase(moment.phase)) : "") +
                              " (its highest point)";
    out << "At " << where << ": " << name_a << " " << formatBytes(total_a) << " (event " << event_a
        << "), " << name_b << " " << formatBytes(total_b) << " (event " << event_b
        << "): " << signedBytes(total_b - total_a) << "\n";
    for (const Section section : {Section::Category, Section::Module, Section::Place}) {
        out << "By " << sectionName(section) << ":\n";
        size_t shown = 0;
        for (const auto& r : rows) {
            if (r.section != section || r.delta() == 0 || shown == top) {
                continue;
            }
            ++shown;
            char line[96];
            std::snprintf(line, sizeof line, "  %12s  %12s  %12s  ", formatBytes(r.a).c_str(),
                          formatBytes(r.b).c_str(), signedBytes(r.delta()).c_str());
            out << line << r.name << "\n";
        }
        if (shown == 0) {
            out << "  no difference\n";
        }
    }
    return out.str();
}

nlohmann::json AlignedDifference::toJson(size_t top) const {
    nlohmann::json sections = nlohmann::json::object();
    for (const Section section : {Section::Category, Section::Module, Section::Place}) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& r : rows) {
            if (r.section == section && list.size() < top) {
                list.push_back({{"name", r.name}, {"a", r.a}, {"b", r.b}, {"delta", r.delta()}});
            }
        }
        sections[sectionName(section)] = std::move(list);
    }
    return {{"at", moment.text},
            {"step", moment.step},
            {"phase", moment.phase >= 0 ? toString(Phase(moment.phase)) : std::string()},
            {"a", {{"name", name_a}, {"event", event_a}, {"bytes", total_a}}},
            {"b", {{"name", name_b}, {"event", event_b}, {"bytes", total_b}}},
            {"delta", total_b - total_a},
            {"by", std::move(sections)}};
}

}  // namespace memscope
