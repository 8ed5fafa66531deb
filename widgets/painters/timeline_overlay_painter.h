#pragma once

#include "painters/timeline_paint_context.h"

#include <QCoreApplication>

class QPainter;

namespace memscope {

// What the timeline marks over the data: the capacity line and out-of-memory events, the peak
// (or the highest point in view) with its label, the category plot's hover line and the rubber
// band of a zoom in progress. (Hover and selection outlines of allocations:
// TimelineAllocationPainter::paintOutline.)
class TimelineOverlayPainter {
    Q_DECLARE_TR_FUNCTIONS(TimelineOverlayPainter)

  public:
    explicit TimelineOverlayPainter(const TimelinePaintContext& context) : m_ctx(context) {}

    void paintCapacityAndOom(QPainter& painter) const;
    // The peak's dot and label; the label goes no higher than `highest_label` (a y in pixels).
    void paintPeak(QPainter& painter, double highest_label) const;
    // A vertical line at pixel column px (inside the plot only).
    void paintHoverLine(QPainter& painter, double px) const;
    // The band between pixel columns from and to, clamped to the plot.
    void paintRubberBand(QPainter& painter, double from, double to) const;

  private:
    const TimelinePaintContext& m_ctx;
};

}  // namespace memscope
