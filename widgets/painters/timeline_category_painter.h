#pragma once

#include "painters/timeline_paint_context.h"

class QPainter;

namespace memscope {

// The category-stacked plot (like torch.profiler's memory timeline): live bytes of each
// category over time, stacked in enum order, parameters at the bottom. Per x when an x is a
// pixel or wider, else per pixel column each layer's highest top there (its envelope), read
// from the layout's per-category blocks; drawn as rectangles per column, no overdraw.
class TimelineCategoryPainter {
  public:
    explicit TimelineCategoryPainter(const TimelinePaintContext& context) : m_ctx(context) {}

    // Counts the layers drawn as the stats' polygons.
    void paint(QPainter& painter) const;

  private:
    const TimelinePaintContext& m_ctx;
};

}  // namespace memscope
