#pragma once

#include <cstdint>
#include <vector>

namespace memscope {

class Trace;
class TimelineLayout;

// Maps a position on one run's timeline x axis (alloc/free event index) to the "same moment" in
// another run: piecewise linear between matching anchors, so that the start of step k's
// forward, backward and optimizer phase in A lands on the same in B however many events each
// phase has. Anchors are the x of the first interval of each (step, phase) both runs have,
// plus 0 and the ends. With no common steps it maps by share of the axis.
struct StepAlignment {
    std::vector<double> a;  // increasing anchors on A's axis
    std::vector<double> b;  // the matching anchors on B's axis

    // From anchor lists; pairs that would not keep both lists increasing are dropped.
    static StepAlignment fromAnchors(const std::vector<double>& a, const std::vector<double>& b);
    // Step starts of two traces on their layouts' axes.
    static StepAlignment between(const Trace& ta, const TimelineLayout& la, const Trace& tb,
                                 const TimelineLayout& lb);

    double aToB(double x) const;
    double bToA(double x) const;
};

}  // namespace memscope
