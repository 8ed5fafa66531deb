#pragma once

#include "painters/timeline_paint_context.h"

#include <vector>

class QPainter;

namespace memscope {

// The layers of the timeline that show total memory: the summarized band (allocations below
// the detail level, [drawn top, total)), the total line, and, zoomed out, each pixel column's
// envelope: what stayed live throughout the column ([0, lowest total)) filled, where memory
// rose and fell within the column ([lowest, highest total)) washed lighter. Every other layer
// keeps inside the envelope: nothing is drawn above a column's highest total and nothing of a
// column's lowest is left unfilled.
class TimelineEnvelopePainter {
  public:
    explicit TimelineEnvelopePainter(const TimelinePaintContext& context) : m_ctx(context) {}

    // Per pixel column of `m` its envelope when the window has more x than columns, else none
    // (an x is a pixel or wider: every layer draws each x as it is). Two O(log X) queries on
    // the layout's block trees per column.
    static std::vector<TimelineColumnEnvelope> columns(const TimelineLayout& layout,
                                                       const TimelineMapping& m);

    // Under the data: [0, lowest total) of every zoomed-out column in the band's colour.
    void paintBase(QPainter& painter) const;
    // The summarized band: per x zoomed in, else per column from its lowest drawn top to its
    // highest total (the drawn allocations cover what lies below them).
    void paintSummarizedBand(QPainter& painter) const;
    // Over the data: the wash over [lowest, highest total) of every zoomed-out column.
    void paintRange(QPainter& painter) const;
    // The total: per x zoomed in, else each column's highest total.
    void paintTotalLine(QPainter& painter) const;

  private:
    const TimelinePaintContext& m_ctx;
};

}  // namespace memscope
