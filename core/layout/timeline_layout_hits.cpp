#include "layout/timeline_layout.h"

#include <algorithm>
#include <cmath>

// What the views ask of the drawn allocations at a point or over a range: the bottom of one at
// an x, the allocation under the pointer, whether it is in the summarized band, the drawn ones
// alive in an x range.

namespace memscope {

int64_t TimelineLayout::bottomAt(int64_t a, int64_t x) const {
    if (a < 0 || a >= allocationCount()) {
        return -1;
    }
    const int64_t d = drawnIndexOf(a);
    if (d < 0 || x < beginX(a) || x >= endX(a)) {
        return -1;
    }
    const TimelinePoint* first = pointsBegin(d);
    const TimelinePoint* last = pointsEnd(d);
    const TimelinePoint* it = std::upper_bound(
        first, last, x, [](int64_t value, const TimelinePoint& p) { return value < p.x; });
    return it == first ? -1 : (it - 1)->y_bottom;
}

int64_t TimelineLayout::hitTest(double x, double y) const {
    if (!(x >= 0) || !(y >= 0) || x >= double(xCount())) {
        return -1;
    }
    const auto xi = static_cast<int64_t>(std::floor(x));
    if (y >= double(drawnTopAt(xi))) {
        return -1;
    }
    for (size_t d = 0; d < m_drawn.size(); ++d) {
        if (m_drawnBegin[d] > xi || m_drawnEnd[d] <= xi) {
            continue;
        }
        const int64_t a = m_drawn[d];
        const int64_t b = bottomAt(a, xi);
        if (y >= double(b) && y < double(b + sizeOf(a))) {
            return a;
        }
    }
    return -1;
}

bool TimelineLayout::inSummarizedBand(double x, double y) const {
    if (!(x >= 0) || x >= double(xCount())) {
        return false;
    }
    const auto xi = static_cast<int64_t>(std::floor(x));
    return y >= double(drawnTopAt(xi)) && y < double(totalAt(xi));
}

std::vector<int64_t> TimelineLayout::drawnIn(int64_t x0, int64_t x1) const {
    std::vector<int64_t> out;
    for (size_t d = 0; d < m_drawn.size(); ++d) {
        if (m_drawnBegin[d] < x1 && m_drawnEnd[d] > x0) {
            out.push_back(int64_t(d));
        }
    }
    return out;
}

}  // namespace memscope
