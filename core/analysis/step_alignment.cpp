#include "analysis/step_alignment.h"

#include "layout/timeline_layout.h"
#include "trace/trace.h"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

namespace memscope {

namespace {

double mapThrough(const std::vector<double>& from, const std::vector<double>& to, double x) {
    if (from.size() < 2 || from.size() != to.size()) {
        return x;
    }
    // Beyond the ends: extend the first / last segment's slope.
    size_t i = 1;
    while (i + 1 < from.size() && x > from[i]) {
        ++i;
    }
    const double f0 = from[i - 1], f1 = from[i], t0 = to[i - 1], t1 = to[i];
    if (f1 == f0) {
        return t0;
    }
    return t0 + (x - f0) * (t1 - t0) / (f1 - f0);
}

// The first x of each step's phases (forward, backward, optimizer: the first interval of each)
// on a layout's axis, in (step, phase) order: a step's first phase is where the step begins.
std::map<std::pair<int32_t, int>, double> phaseStarts(const Trace& t, const TimelineLayout& l) {
    std::map<std::pair<int32_t, int>, double> out;
    for (const auto& p : t.phases) {
        const std::pair<int32_t, int> key{p.step, int(p.phase)};
        if (p.step <= 0 || out.count(key)) {
            continue;
        }
        out[key] = double(l.xAtTime(p.begin_ns));
    }
    return out;
}

}  // namespace

StepAlignment StepAlignment::fromAnchors(const std::vector<double>& a,
                                         const std::vector<double>& b) {
    StepAlignment s;
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
        if (!s.a.empty() && (a[i] <= s.a.back() || b[i] <= s.b.back())) {
            continue;
        }
        s.a.push_back(a[i]);
        s.b.push_back(b[i]);
    }
    return s;
}

StepAlignment StepAlignment::between(const Trace& ta, const TimelineLayout& la, const Trace& tb,
                                     const TimelineLayout& lb) {
    // Anchors in A's axis order; a pair that would not keep both increasing is dropped
    // (fromAnchors), so a phase one run has and the other lacks moves nothing.
    std::vector<std::pair<double, double>> pairs;
    const auto sa = phaseStarts(ta, la), sb = phaseStarts(tb, lb);
    for (const auto& [key, x] : sa) {
        const auto it = sb.find(key);
        if (it != sb.end()) {
            pairs.emplace_back(x, it->second);
        }
    }
    std::stable_sort(pairs.begin(), pairs.end());
    std::vector<double> a{0}, b{0};
    for (const auto& [xa, xb] : pairs) {
        a.push_back(xa);
        b.push_back(xb);
    }
    a.push_back(double(std::max<int64_t>(la.xCount(), 1)));
    b.push_back(double(std::max<int64_t>(lb.xCount(), 1)));
    return fromAnchors(a, b);
}

double StepAlignment::aToB(double x) const {
    return mapThrough(a, b, x);
}

double StepAlignment::bToA(double x) const {
    return mapThrough(b, a, x);
}

}  // namespace memscope
