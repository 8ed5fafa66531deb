#pragma once

#include "painters/timeline_paint_context.h"

#include "layout/timeline_mapping.h"
#include "trace/trace_annotations.h"

#include <QColor>
#include <QFont>
#include <QImage>
#include <QRectF>
#include <QSize>
#include <QString>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QPainter;

namespace memscope {

class ReservedLinePainter;
class TimelineColors;
class TimelineLayout;
class Trace;

// Paints the timeline's chart (everything but the hover and selection outlines) from a frozen
// copy of what TimelineView shows, so that it can run on any thread: TimelineView renders its
// chart image here, on the GUI thread when that is fast and on a worker thread for a live run's
// refreshes and for traces whose chart takes long (see TimelineView::setChartRendering).
// Everything the paint reads is held by shared_ptr to an object no thread writes while it is
// held (TimelineView copies its colours and reserved line before changing them while a render
// holds them, and waits for the render before it changes the layout's detail), or copied.
class TimelineChartRenderer {
  public:
    struct Input {
        std::shared_ptr<const Trace> trace;
        std::shared_ptr<const TimelineLayout> layout;  // nullptr: the placeholder is shown
        std::shared_ptr<const TimelineColors> colors;
        std::shared_ptr<const ReservedLinePainter> reserved;
        std::shared_ptr<const std::vector<TimelineOomMark>> ooms;
        // The regions drawn along the bottom (nullptr: none, unless computeAnnotations).
        std::shared_ptr<const std::vector<TraceAnnotation>> annotations;
        // Without annotations: render() computes them from the trace (TraceAnnotations::fromTrace,
        // a pass over every span) on its thread, draws them and returns them; paint() draws only
        // the annotations it is given.
        bool computeAnnotations = false;
        std::vector<int64_t> highlighted;  // sorted allocation indices
        // The range filter's x range: shaded outside it.
        std::optional<std::pair<double, double>> filterX;
        bool categories = false;  // the category-stacked plot
        bool timeAxis = false;
        double x0 = 0;  // the visible window
        double x1 = 1;
        QFont font;
        // Shown instead of the chart without a layout, in this colour.
        QString placeholder;
        QColor placeholderColor;
        // The bottom line's end ("Detail: ..."), and the legend entry of a zoomed-out column's
        // range (translated on the GUI thread).
        QString detailText;
        QString rangeLegendText;
    };

    // The plot rectangle inside `area` (axes and legend around it).
    static QRectF plotRect(const QRectF& area);
    // The mapping of the window [x0, x1) onto the plot of `area`: y up to the window's peak,
    // the capacity and the reserved line's highest point there.
    static TimelineMapping mapping(const Trace* trace, const TimelineLayout* layout,
                                   const ReservedLinePainter& reserved, double x0, double x1,
                                   bool time_axis, const QRectF& area);
    // Paints the chart into `area`. `overlays`, when given, paints over the layers inside the
    // plot's clip, before the frame (what TimelineView adds for exports: the outlines).
    static TimelinePaintStats paint(
        const Input& input, QPainter& painter, const QRectF& area,
        const std::function<void(QPainter&, const TimelineMapping&)>& overlays = {});
    // The chart as an image of `size` logical pixels at device pixel ratio `dpr`.
    struct Result {
        QImage image;
        TimelinePaintStats stats;
        // What computeAnnotations computed (nullptr when it was not asked for), for the caller
        // to keep.
        std::shared_ptr<const std::vector<TraceAnnotation>> annotations;
    };
    static Result render(const Input& input, const QSize& size, qreal dpr);
};

}  // namespace memscope
