#pragma once

#include "painters/timeline_paint_context.h"

#include "trace/trace_annotations.h"

#include <QCoreApplication>

#include <vector>

class QPainter;

namespace memscope {

// Regions of the run on the timeline: annotations (steps, phases, checkpoint recomputations,
// imported user annotations) as labelled bands in lanes along the bottom of the plot, per kind
// that has any as many lanes as its regions nest (overlapping regions stack), and the range
// filter: everything outside its x range washed grey, with
// its edges marked. Also the band of a Ctrl+drag that is choosing a filter range.
class TimelineAnnotationPainter {
    Q_DECLARE_TR_FUNCTIONS(TimelineAnnotationPainter)

  public:
    explicit TimelineAnnotationPainter(const TimelinePaintContext& context) : m_ctx(context) {}

    // Height of one lane of bands, in pixels.
    static constexpr double kLane = 15;
    // Lanes drawn at most (regions nested deeper are left out).
    static constexpr int kMaxLanes = 8;
    // Regions narrower than this many pixels, one after another in a lane, merge into one band.
    static constexpr double kMinBand = 4;

    void paintAnnotations(QPainter& painter, const std::vector<TraceAnnotation>& regions) const;
    // Washes the plot outside [x0, x1) (layout x's).
    void paintFilter(QPainter& painter, double x0, double x1) const;
    // A filter range being dragged between pixel columns from and to.
    void paintFilterBand(QPainter& painter, double from, double to) const;
    // The name of a kind, for the legend and tooltips.
    static QString kindName(TraceAnnotation::Kind kind);

  private:
    const TimelinePaintContext& m_ctx;
};

}  // namespace memscope
