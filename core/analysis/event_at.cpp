#include "analysis/event_at.h"

#include "model/input_error.h"
#include "trace/trace.h"

#include <algorithm>
#include <cstdio>
#include <regex>

namespace memscope {

EventAt EventAt::parse(const std::string& text) {
    static const std::regex pattern(R"(^\s*(\d+(?:\.\d+)?)\s*(ns|us|ms|s|min)?\s*$)");
    std::smatch match;
    const auto bad = [&text] {
        return InputError("'" + text +
                          "' is not an event index (5000), a time with a unit (1.25s, 300ms), "
                          "peak or oom");
    };
    if (text == "peak" || text == "oom") {
        EventAt at;
        at.mark = text == "peak" ? Mark::Peak : Mark::Oom;
        return at;
    }
    if (!std::regex_match(text, match, pattern)) {
        throw bad();
    }
    EventAt at;
    const std::string number = match[1].str();
    const std::string unit = match[2].str();
    if (unit.empty()) {
        if (number.find('.') != std::string::npos || number.size() > 18) {
            throw bad();
        }
        at.value = std::stoll(number);
        return at;
    }
    const double scale = unit == "ns"   ? 1.0
                         : unit == "us" ? 1e3
                         : unit == "ms" ? 1e6
                         : unit == "s"  ? 1e9
                                        : 60e9;
    const double ns = std::stod(number) * scale;
    if (ns > 9.2e18) {
        throw bad();
    }
    at.is_time = true;
    at.value = int64_t(ns);
    return at;
}

int64_t EventAt::resolve(const Trace& trace) const {
    const auto count = int64_t(trace.events.count());
    if (count == 0) {
        throw InputError("the run has no events");
    }
    if (mark == Mark::Peak) {
        const int64_t peak = trace.peakEvent();
        if (peak < 0) {
            throw InputError("the run allocated nothing, so it has no peak");
        }
        return peak;
    }
    if (mark == Mark::Oom) {
        for (int64_t i = 0; i < count; ++i) {
            if (static_cast<EventKind>(trace.events.kind[size_t(i)]) == EventKind::Oom) {
                return i;
            }
        }
        throw InputError("the run has no out-of-memory event");
    }
    if (!is_time) {
        if (value >= count) {
            throw InputError("the run has events 0 to " + std::to_string(count - 1) + " only");
        }
        return value;
    }
    const auto& times = trace.events.time_ns;
    if (value > times.back()) {
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%.3f s", double(times.back()) * 1e-9);
        throw InputError(std::string("the run ends at ") + buffer);
    }
    const auto it = std::upper_bound(times.begin(), times.end(), value);
    return std::max<int64_t>(0, int64_t(it - times.begin()) - 1);
}

}  // namespace memscope
