#include "timeline/timeline_chart_renderer.h"

#include "painters/reserved_line_painter.h"
#include "painters/timeline_allocation_painter.h"
#include "painters/timeline_annotation_painter.h"
#include "painters/timeline_category_painter.h"
#include "painters/timeline_colors.h"
#include "painters/timeline_envelope_painter.h"
#include "painters/timeline_frame_painter.h"
#include "painters/timeline_overlay_painter.h"
#include "painters/timeline_step_painter.h"

#include "layout/timeline_layout.h"
#include "trace/trace.h"

#include <QElapsedTimer>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace memscope {

QRectF TimelineChartRenderer::plotRect(const QRectF& area) {
    const double top = area.top() + TimelineFramePainter::kHeader + TimelineFramePainter::kStrip;
    return QRectF(
        area.left() + TimelineFramePainter::kLeft, top,
        std::max(area.width() - TimelineFramePainter::kLeft - TimelineFramePainter::kRight, 10.0),
        std::max(area.bottom() - TimelineFramePainter::kBottom - top, 10.0));
}

TimelineMapping TimelineChartRenderer::mapping(const Trace* trace, const TimelineLayout* layout,
                                               const ReservedLinePainter& reserved, double x0,
                                               double x1, bool time_axis, const QRectF& area) {
    const QRectF plot = plotRect(area);
    TimelineMapping m;
    m.x0 = x0;
    m.x1 = x1;
    m.left = plot.left();
    m.top = plot.top();
    m.width = plot.width();
    m.height = plot.height();
    int64_t visible_max =
        layout ? layout->maxTotal(int64_t(std::floor(x0)), int64_t(std::ceil(x1))) : 0;
    if (trace && trace->meta.capacity_bytes > 0) {
        visible_max = std::max(visible_max, trace->meta.capacity_bytes);
    }
    visible_max =
        std::max(visible_max, reserved.maxIn(int64_t(std::floor(x0)), int64_t(std::ceil(x1))));
    m.ymax = TimelineMapping::niceByteTop(double(visible_max), std::max(2, int(m.height / 70)));
    if (time_axis && layout && layout->xCount() > 0) {
        m = m.withTimeAxis(&layout->times(), layout->xCount(), layout->endTime());
    }
    return m;
}

TimelinePaintStats TimelineChartRenderer::paint(
    const Input& input, QPainter& painter, const QRectF& area,
    const std::function<void(QPainter&, const TimelineMapping&)>& overlays) {
    QElapsedTimer timer;
    timer.start();
    TimelinePaintStats stats;
    painter.fillRect(area, Qt::white);
    if (!input.layout || !input.colors || !input.reserved) {
        painter.setPen(input.placeholderColor);
        painter.drawText(area, Qt::AlignCenter, input.placeholder);
        return stats;
    }
    const TimelineLayout& layout = *input.layout;
    const ReservedLinePainter& reserved = *input.reserved;
    const TimelineMapping m =
        mapping(input.trace.get(), &layout, reserved, input.x0, input.x1, input.timeAxis, area);
    const QRectF plot(m.left, m.top, m.width, m.height);
    // Zoomed out (more x than pixel columns), each column shows the envelope of memory over
    // the x's it covers: filled up to the lowest total, washed lighter from there to the
    // highest. Every layer keeps inside it.
    TimelinePaintContext context(input.trace.get(), layout, *input.colors, m);
    context.ooms = input.ooms.get();
    context.stats = &stats;
    context.envelope = TimelineEnvelopePainter::columns(layout, m);
    const TimelineEnvelopePainter envelope(context);
    const TimelineStepPainter steps(context);
    const TimelineOverlayPainter marks(context);
    const TimelineFramePainter frame(context);

    QVector<TimelineLegendEntry> entries = input.colors->legend(&layout, input.categories);
    if (context.zoomedOut()) {
        entries.push_back({input.rangeLegendText, TimelineColors::rangeLegend()});
    }
    frame.paintHeader(painter, area, entries, &reserved);

    // The layers, bottom first, clipped to the plot.
    painter.save();
    painter.setClipRect(plot.adjusted(0, 0, 1, 1));
    painter.setRenderHint(QPainter::Antialiasing, false);
    steps.paintPhases(painter, QRectF(plot.left(), plot.top() - TimelineFramePainter::kStrip,
                                      plot.width(), TimelineFramePainter::kStrip));
    // Grid behind the data.
    painter.setPen(QPen(QColor(0, 0, 0, 28), 0));
    const double step = TimelineMapping::byteTickStep(m.ymax, std::max(2, int(m.height / 70)));
    for (const double tick : TimelineMapping::ticks(step, m.ymax, step)) {
        const double y = std::round(m.bytesToPixel(tick)) + 0.5;
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
    }
    if (input.categories) {
        TimelineCategoryPainter(context).paint(painter);
    } else {
        envelope.paintBase(painter);
        envelope.paintSummarizedBand(painter);
        TimelineAllocationPainter(context).paint(painter);
    }
    envelope.paintRange(painter);
    if (!input.categories) {
        TimelineAllocationPainter(context).paintHighlighted(painter, input.highlighted);
    }
    envelope.paintTotalLine(painter);
    steps.paintStepLines(painter);
    steps.paintStepFloors(painter);
    reserved.paint(painter, m);
    const TimelineAnnotationPainter regions(context);
    if (input.filterX) {
        regions.paintFilter(painter, input.filterX->first, input.filterX->second);
    }
    if (input.annotations) {
        regions.paintAnnotations(painter, *input.annotations);
    }
    marks.paintCapacityAndOom(painter);
    if (overlays) {
        overlays(painter, m);
    }
    painter.restore();

    painter.setPen(QPen(QColor(0, 0, 0, 90), 0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(plot);
    marks.paintPeak(painter, m.top - TimelineFramePainter::kStrip + 2);
    frame.paintAxes(painter, area, input.detailText);
    stats.milliseconds = double(timer.nsecsElapsed()) / 1e6;
    return stats;
}

TimelineChartRenderer::Result TimelineChartRenderer::render(const Input& input, const QSize& size,
                                                            qreal dpr) {
    Result result;
    result.image =
        QImage(QSize(int(std::ceil(size.width() * dpr)), int(std::ceil(size.height() * dpr))),
               QImage::Format_ARGB32_Premultiplied);
    result.image.setDevicePixelRatio(dpr);
    result.image.fill(Qt::white);
    QPainter painter(&result.image);
    painter.setFont(input.font);
    const QRectF area(QPointF(0, 0), QSizeF(size));
    if (input.computeAnnotations && !input.annotations && input.trace) {
        Input with = input;
        with.annotations = std::make_shared<const std::vector<TraceAnnotation>>(
            TraceAnnotations::fromTrace(*input.trace));
        result.annotations = with.annotations;
        result.stats = paint(with, painter, area);
    } else {
        result.stats = paint(input, painter, area);
    }
    return result;
}

}  // namespace memscope
