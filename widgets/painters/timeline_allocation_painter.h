#pragma once

#include "painters/timeline_paint_context.h"

#include <QPolygonF>

#include <cstdint>
#include <vector>

class QPainter;

namespace memscope {

// The drawn allocations of the timeline (the largest N, stacked as memory_viz stacks them),
// in their palette colours: only those live in the visible window, polygons simplified to the
// pixel grid, rectangles where nothing below moved, and those narrower (or thinner) than a
// pixel merged per pixel column (or row) and colour group. An allocation is outlined only when
// it reads as a block (6 pixels or more each way) and its bottom edge drops no more often than
// every few pixels. Also the emphasised ones (highlighted, hovered, pinned) drawn over the rest.
class TimelineAllocationPainter {
  public:
    explicit TimelineAllocationPainter(const TimelinePaintContext& context) : m_ctx(context) {}

    // Every drawn allocation in the window (counted in the context's stats).
    void paint(QPainter& painter) const;
    // Everything dimmed, then these allocations (sorted indices) drawn again, outlined.
    void paintHighlighted(QPainter& painter, const std::vector<int64_t>& highlighted) const;
    // A hover (pinned: selection) outline around one allocation, at least 3 pixels wide.
    void paintOutline(QPainter& painter, int64_t allocation, bool pinned) const;
    // The outline of drawn allocation d over the window, at least min_height pixels tall.
    QPolygonF polygon(int64_t d, double min_height) const;

  private:
    const TimelinePaintContext& m_ctx;
};

}  // namespace memscope
