#include "timeline_view.h"

#include "run_document.h"
#include "run_indexes.h"
#include "timeline_allocation_painter.h"
#include "timeline_annotation_painter.h"
#include "timeline_category_painter.h"
#include "timeline_envelope_painter.h"
#include "timeline_frame_painter.h"
#include "timeline_labels.h"
#include "timeline_overlay_painter.h"
#include "timeline_step_painter.h"
#include "timeline_tooltips.h"

#include "trace/timeline_layout.h"
#include "trace/trace.h"

#include <QElapsedTimer>
#include <QEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <vector>

namespace memscope {

static_assert(int(TimelineView::ColorMode::Allocation) == int(TimelineColors::Scheme::Allocation) &&
                  int(TimelineView::ColorMode::Category) == int(TimelineColors::Scheme::Category) &&
                  int(TimelineView::ColorMode::Module) == int(TimelineColors::Scheme::Module) &&
                  int(TimelineView::ColorMode::Phase) == int(TimelineColors::Scheme::Phase),
              "TimelineColors::Scheme follows TimelineView::ColorMode");

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("timeline_view"));
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(320, 170);  // 170: room for the search row without a taller window
    setAttribute(Qt::WA_OpaquePaintEvent);
}

TimelineView::TimelineView(RunDocument* document, QWidget* parent) : TimelineView(parent) {
    setViewState(document);
}

TimelineView::~TimelineView() = default;

void TimelineView::setTrace(std::shared_ptr<const Trace> trace,
                            std::shared_ptr<TimelineLayout> layout) {
    m_trace = std::move(trace);
    m_layout = std::move(layout);
    if (m_trace && !m_layout) {
        m_layout = std::make_shared<TimelineLayout>(*m_trace);
    }
    if (!m_trace) {
        m_layout.reset();
    }
    rebuildDerived();
    m_hovered = -1;
    m_hoverPx = -1;
    m_banding = false;
    // The document's pinned allocation when it is this run's (pinned while it was laid out).
    m_selected = m_state && m_layout && m_state->trace() == m_trace &&
                         m_state->selectedAllocation() < m_layout->allocationCount()
                     ? m_state->selectedAllocation()
                     : -1;
    m_userDetail = false;
    resetView();
    if (m_layout) {
        emit detailChanged(m_layout->detail());
    }
}

void TimelineView::updateTrace(std::shared_ptr<const Trace> trace,
                               std::shared_ptr<TimelineLayout> layout) {
    if (!m_layout || !trace) {
        setTrace(std::move(trace), std::move(layout));
        return;
    }
    if (!layout) {
        layout = std::make_shared<TimelineLayout>(*trace);
    }
    const double old_end = std::max<double>(double(m_layout->xCount()), 1.0);
    const int64_t old_detail = m_layout->detail();
    const double span = m_x1 - m_x0;
    const bool showed_all = m_x0 <= 0 && m_x1 >= old_end;
    const bool following = m_x1 >= old_end;
    if (m_userDetail && layout->detail() != old_detail) {
        layout->setDetail(old_detail);
    }
    const size_t old_events = m_trace->events.count();
    m_trace = std::move(trace);
    m_layout = std::move(layout);
    if (m_layout->firstNewAllocation() > 0) {
        extendDerived(old_events);  // an extended layout: only what the new events touched
    } else {
        rebuildDerived();
    }
    const int64_t count = m_layout->allocationCount();
    if (m_selected >= count) {
        m_selected = -1;
        emit allocationSelected(-1);
    }
    if (m_hovered >= count || (m_hovered >= 0 && m_layout->drawnIndexOf(m_hovered) < 0)) {
        setHovered(-1);
    }
    const double new_end = std::max<double>(double(m_layout->xCount()), 1.0);
    double x0 = m_x0;
    double x1 = m_x1;
    if (showed_all) {
        x0 = 0;
        x1 = new_end;
    } else if (following) {
        x1 = new_end;
        x0 = std::max(0.0, new_end - span);
    }
    TimelineMapping m;
    m.x0 = x0;
    m.x1 = x1;
    m = m.clampedTo(0, new_end);
    if (m.x0 != m_x0 || m.x1 != m_x1) {
        m_x0 = m.x0;
        m_x1 = m.x1;
        emit visibleRangeChanged(m_x0, m_x1);
    }
    if (m_layout->detail() != old_detail) {
        emit detailChanged(m_layout->detail());
    }
    update();
}

void TimelineView::rebuildDerived() {
    m_ooms.clear();
    addOomMarks(0);
    m_reservedLine.setTrace(m_trace.get(), m_layout.get());
    rebuildColors();
    m_annotationsOf = nullptr;  // recomputed from the new trace when next drawn
    invalidateChart();
}

void TimelineView::extendDerived(size_t old_events) {
    // Only what the new events add: the earlier ones and their places on the x axis stay.
    addOomMarks(old_events);
    m_reservedLine.extend(m_trace.get(), m_layout.get());
    m_colors.extend(m_trace.get(), m_layout.get());
    m_annotationsOf = nullptr;
    invalidateChart();
}

void TimelineView::addOomMarks(size_t first_event) {
    if (m_layout && m_trace) {
        const auto& events = m_trace->events;
        // A whole run's OOM events come from the document's indexes (found once per trace);
        // a live snapshot's new events are scanned here.
        const RunIndexes* indexes = first_event == 0 ? documentIndexes() : nullptr;
        std::vector<int64_t> scanned;
        if (!indexes) {
            for (size_t i = first_event; i < events.count(); ++i) {
                if (static_cast<EventKind>(events.kind[i]) == EventKind::Oom) {
                    scanned.push_back(int64_t(i));
                }
            }
        }
        for (const int64_t oom : indexes ? indexes->oomEvents() : scanned) {
            const auto i = size_t(oom);
            // Its place on the x axis: after the alloc/free events before it.
            int64_t lo = 0;
            int64_t hi = m_layout->xCount();
            while (lo < hi) {
                const int64_t mid = (lo + hi) / 2;
                if (m_layout->eventAt(mid) < int64_t(i)) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            m_ooms.push_back({lo, std::abs(events.size[i]), events.allocated[i]});
        }
    }
}

void TimelineView::rebuildColors() {
    m_colors.rebuild(m_trace.get(), m_layout.get(), TimelineColors::Scheme(int(m_colorMode)),
                     documentIndexes());
}

const RunIndexes* TimelineView::documentIndexes() const {
    return m_state && m_trace && m_state->trace() == m_trace ? m_state->indexes().get() : nullptr;
}

void TimelineView::setHovered(int64_t a) {
    m_hovered = a;
    if (m_state) {
        m_state->setHoveredAllocation(a);
    }
}

void TimelineView::invalidateChart() {
    ++m_generation;
    update();
}

void TimelineView::setColorMode(ColorMode mode) {
    if (mode == m_colorMode) {
        return;
    }
    m_colorMode = mode;
    rebuildColors();
    invalidateChart();
    emit colorModeChanged(mode);
}

QColor TimelineView::allocationColor(int64_t a) const {
    return m_colors.allocationColor(a);
}

QVector<TimelineView::LegendEntry> TimelineView::legend() const {
    return m_colors.legend(m_layout.get(), m_plotMode == PlotMode::Categories);
}

void TimelineView::setPlotMode(PlotMode mode) {
    if (mode == m_plotMode) {
        return;
    }
    m_plotMode = mode;
    setHovered(-1);
    invalidateChart();
    emit plotModeChanged(mode);
}

void TimelineView::setTimeAxis(bool on) {
    if (on == m_timeAxis) {
        return;
    }
    m_timeAxis = on;
    invalidateChart();
    emit timeAxisChanged(on);
}

void TimelineView::setHighlightedAllocations(const QVector<qint64>& allocations) {
    std::vector<int64_t> sorted(allocations.begin(), allocations.end());
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    if (sorted == m_highlighted) {
        return;
    }
    m_highlighted = std::move(sorted);
    invalidateChart();
}

QVector<qint64> TimelineView::highlightedAllocations() const {
    return QVector<qint64>(m_highlighted.begin(), m_highlighted.end());
}

void TimelineView::setPlaceholderText(const QString& text) {
    m_placeholder = text;
    invalidateChart();
}

void TimelineView::setDetail(int64_t n) {
    if (!m_layout) {
        return;
    }
    m_userDetail = true;
    if (std::clamp<int64_t>(n, 0, m_layout->allocationCount()) == m_layout->detail()) {
        return;
    }
    m_layout->setDetail(n);
    if (m_hovered >= 0 && m_layout->drawnIndexOf(m_hovered) < 0) {
        setHovered(-1);
    }
    emit detailChanged(m_layout->detail());
    invalidateChart();
}

void TimelineView::setDetailPercent(double percent) {
    if (m_layout) {
        setDetail(m_layout->detailForPercent(percent));
    }
}

int64_t TimelineView::detail() const {
    return m_layout ? m_layout->detail() : 0;
}

int64_t TimelineView::allocationCount() const {
    return m_layout ? m_layout->allocationCount() : 0;
}

QString TimelineView::detailText() const {
    return tr("Detail: %1 of %2 allocations")
        .arg(QLocale().toString(qint64(detail())), QLocale().toString(qint64(allocationCount())));
}

void TimelineView::setVisibleRange(double x0, double x1) {
    const double limit = m_layout ? std::max<double>(double(m_layout->xCount()), 1.0) : 1.0;
    if (!(x1 > x0)) {
        x1 = x0 + 1;
    }
    TimelineMapping m;
    m.x0 = x0;
    m.x1 = x1;
    m = m.clampedTo(0, limit);
    if (m.x0 == m_x0 && m.x1 == m_x1) {
        return;
    }
    m_x0 = m.x0;
    m_x1 = m.x1;
    emit visibleRangeChanged(m_x0, m_x1);
    update();
}

void TimelineView::resetView() {
    const double limit = m_layout ? std::max<double>(double(m_layout->xCount()), 1.0) : 1.0;
    m_x0 = 0;
    m_x1 = limit;
    emit visibleRangeChanged(m_x0, m_x1);
    update();
}

QRectF TimelineView::plotRect(const QRectF& area) const {
    const double top = area.top() + TimelineFramePainter::kHeader + TimelineFramePainter::kStrip;
    return QRectF(
        area.left() + TimelineFramePainter::kLeft, top,
        std::max(area.width() - TimelineFramePainter::kLeft - TimelineFramePainter::kRight, 10.0),
        std::max(area.bottom() - TimelineFramePainter::kBottom - top, 10.0));
}

TimelineMapping TimelineView::mapping(const QRectF& area) const {
    const QRectF plot = plotRect(area);
    TimelineMapping m;
    m.x0 = m_x0;
    m.x1 = m_x1;
    m.left = plot.left();
    m.top = plot.top();
    m.width = plot.width();
    m.height = plot.height();
    int64_t visible_max =
        m_layout ? m_layout->maxTotal(int64_t(std::floor(m_x0)), int64_t(std::ceil(m_x1))) : 0;
    if (m_trace && m_trace->meta.capacity_bytes > 0) {
        visible_max = std::max(visible_max, m_trace->meta.capacity_bytes);
    }
    visible_max = std::max(
        visible_max, m_reservedLine.maxIn(int64_t(std::floor(m_x0)), int64_t(std::ceil(m_x1))));
    m.ymax = TimelineMapping::niceByteTop(double(visible_max), std::max(2, int(m.height / 70)));
    if (m_timeAxis && m_layout && m_layout->xCount() > 0) {
        m = m.withTimeAxis(m_layout->times().data(), m_layout->xCount(), m_layout->endTime());
    }
    return m;
}

int64_t TimelineView::allocationAt(const QPointF& pos) const {
    if (!m_layout || !plotRect(QRectF(rect())).contains(pos)) {
        return -1;
    }
    const TimelineMapping m = mapping();
    const double x = m.pixelToX(pos.x());
    // Thin allocations are often under a pixel tall: probe a pixel either side too.
    for (const double dy : {0.0, 1.0, -1.0, 2.0, -2.0}) {
        const int64_t a = m_layout->hitTest(x, m.pixelToBytes(pos.y() + dy));
        if (a >= 0) {
            return a;
        }
    }
    return -1;
}

void TimelineView::selectAllocation(int64_t index) {
    if (!m_layout || index < 0 || index >= m_layout->allocationCount()) {
        index = -1;
    }
    m_selected = index;
    update();
    emit allocationSelected(int(index));
}

void TimelineView::setViewState(RunDocument* state) {
    if (m_state) {
        disconnect(m_state, nullptr, this, nullptr);
        disconnect(this, nullptr, m_state, nullptr);
    }
    m_state = state;
    if (!m_state) {
        setRangeFilter(std::nullopt);
        return;
    }
    connect(m_state, &RunDocument::visibleRangeChanged, this, &TimelineView::setVisibleRange);
    connect(this, &TimelineView::visibleRangeChanged, m_state, &RunDocument::setVisibleRange);
    connect(m_state, &RunDocument::selectedAllocationChanged, this, [this](qint64 a) {
        // Without a layout yet the pin stays in the document (setTrace takes it up), rather
        // than being cleared by this view.
        if (a != m_selected && m_layout) {
            selectAllocation(a);
        }
    });
    connect(this, &TimelineView::allocationSelected, m_state,
            [this](int a) { m_state->setSelectedAllocation(a); });
    connect(m_state, &RunDocument::highlightedAllocationsChanged, this,
            &TimelineView::setHighlightedAllocations);
    connect(m_state, &RunDocument::filterChanged, this, &TimelineView::setRangeFilter);
    connect(m_state, &RunDocument::revealRequested, this,
            [this](qint64 a) { revealAllocation(a); });
    // The x axis, the detail and the hover go both ways too.
    connect(m_state, &RunDocument::timeAxisChanged, this, &TimelineView::setTimeAxis);
    connect(this, &TimelineView::timeAxisChanged, m_state, &RunDocument::setTimeAxis);
    connect(m_state, &RunDocument::detailChanged, this, [this](qint64 n) {
        if (n >= 0 && m_layout && n != m_layout->detail()) {
            setDetail(n);
        }
    });
    connect(this, &TimelineView::detailChanged, m_state, &RunDocument::setDetail);
    connect(m_state, &RunDocument::hoveredAllocationChanged, this, [this](qint64 a) {
        if (a != m_hovered && a < allocationCount()) {
            m_hovered = a;
            update();
        }
    });
    setRangeFilter(m_state->filter());
    setHighlightedAllocations(m_state->highlightedAllocations());
    m_state->setVisibleRange(m_x0, m_x1);
    m_state->setTimeAxis(m_timeAxis);
    if (m_layout) {
        m_state->setDetail(m_layout->detail());
    }
}

void TimelineView::setRangeFilter(const std::optional<RangeFilter>& filter) {
    if (filter == m_filter) {
        return;
    }
    m_filter = filter;
    invalidateChart();
}

std::pair<int64_t, int64_t> TimelineView::eventRangeOfX(double x0, double x1) const {
    if (!m_layout || !m_trace) {
        return {0, 0};
    }
    return RunDocument::eventRangeOfX(*m_layout, int64_t(m_trace->events.count()), x0, x1);
}

double TimelineView::xOfEvent(int64_t event) const {
    return m_layout ? RunDocument::xOfEvent(*m_layout, event) : 0;
}

void TimelineView::revealAllocation(int64_t a) {
    if (!m_layout || a < 0 || a >= m_layout->allocationCount()) {
        return;
    }
    const double begin = double(m_layout->beginX(a));
    const double end = double(m_layout->endX(a));
    if (begin < m_x1 && end > m_x0) {
        return;  // already in view
    }
    const double span = m_x1 - m_x0;
    const double centre = (begin + std::min(end, begin + span / 2)) / 2;
    setVisibleRange(centre - span / 2, centre + span / 2);
}

const std::vector<TraceAnnotation>& TimelineView::annotations() const {
    if (m_annotationsOf != m_trace.get()) {
        m_annotations =
            m_trace ? TraceAnnotations::fromTrace(*m_trace) : std::vector<TraceAnnotation>();
        m_annotationsOf = m_trace.get();
    }
    return m_annotations;
}

void TimelineView::setAnnotationsVisible(bool on) {
    if (on == m_annotationsVisible) {
        return;
    }
    m_annotationsVisible = on;
    invalidateChart();
}

QString TimelineView::categoryName(int category) {
    return TimelineLabels::categoryName(category);
}

QString TimelineView::phaseName(int phase) {
    return TimelineLabels::phaseName(phase);
}

QColor TimelineView::categoryColor(int category) {
    return TimelineColors::categoryColor(category);
}

QString TimelineView::byteTickLabel(double bytes, double top) {
    return TimelineFramePainter::byteTickLabel(bytes, top);
}

int32_t TimelineView::stepLineStride(double pixels_per_step) {
    return TimelineStepPainter::stepLineStride(pixels_per_step);
}

QString TimelineView::tooltipText(int64_t allocation, int64_t x) const {
    return TimelineTooltips::allocationText(m_trace.get(), m_layout.get(), allocation, x);
}

QString TimelineView::categoryTooltipText(int64_t x) const {
    return TimelineTooltips::categoryText(m_layout.get(), m_colors, x);
}

void TimelineView::renderTo(QPainter& painter, const QRectF& area) {
    paintAll(painter, area, true);
}

QImage TimelineView::renderImage(const QSize& size, qreal scale) {
    scale = std::clamp<qreal>(scale, 1, 4);
    QImage image(QSize(int(std::ceil(size.width() * scale)), int(std::ceil(size.height() * scale))),
                 QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setFont(font());
    paintAll(painter, QRectF(QPointF(0, 0), QSizeF(size)));
    return image;
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QRectF area(rect());
    if (!m_layout) {
        paintAll(painter, area);
        return;
    }
    // The chart is redrawn only when what it shows changed; hover and selection outlines and
    // the rubber band are painted over the kept image.
    const qreal dpr = devicePixelRatioF();
    const QSize pixels(int(std::ceil(width() * dpr)), int(std::ceil(height() * dpr)));
    m_lastPaintCached = m_chart.size() == pixels && m_chart.devicePixelRatio() == dpr &&
                        m_chartGeneration == m_generation && m_chartX0 == m_x0 && m_chartX1 == m_x1;
    if (!m_lastPaintCached) {
        m_chart = QImage(pixels, QImage::Format_ARGB32_Premultiplied);
        m_chart.setDevicePixelRatio(dpr);
        m_chart.fill(Qt::white);
        QPainter chart(&m_chart);
        chart.setFont(font());
        paintAll(chart, area, false);
        m_chartGeneration = m_generation;
        m_chartX0 = m_x0;
        m_chartX1 = m_x1;
    }
    painter.drawImage(QPointF(0, 0), m_chart);
    const TimelineMapping m = mapping(area);
    painter.save();
    painter.setClipRect(QRectF(m.left, m.top, m.width, m.height).adjusted(0, 0, 1, 1));
    paintOverlays(painter, m);
    painter.restore();
}

TimelinePaintContext TimelineView::paintContext(const TimelineMapping& m) {
    TimelinePaintContext context(m_trace.get(), *m_layout, m_colors, m);
    context.ooms = &m_ooms;
    context.stats = &m_stats;
    return context;
}

void TimelineView::paintOverlays(QPainter& painter, const TimelineMapping& m) {
    const TimelinePaintContext context = paintContext(m);
    if (m_plotMode == PlotMode::Allocations) {
        const TimelineAllocationPainter allocations(context);
        if (m_selected >= 0) {
            allocations.paintOutline(painter, m_selected, true);
        }
        if (m_hovered >= 0 && m_hovered != m_selected) {
            allocations.paintOutline(painter, m_hovered, false);
        }
    } else if (m_hoverPx >= 0) {
        TimelineOverlayPainter(context).paintHoverLine(painter, m_hoverPx);
    }
    if (m_banding && m_filtering) {
        TimelineAnnotationPainter(context).paintFilterBand(painter, m_bandFrom, m_bandTo);
    } else if (m_banding) {
        TimelineOverlayPainter(context).paintRubberBand(painter, m_bandFrom, m_bandTo);
    }
}

void TimelineView::paintAll(QPainter& painter, const QRectF& area, bool overlays) {
    QElapsedTimer timer;
    timer.start();
    m_stats = PaintStats{};
    painter.fillRect(area, Qt::white);
    if (!m_layout) {
        painter.setPen(palette().color(QPalette::Disabled, QPalette::WindowText));
        painter.drawText(area, Qt::AlignCenter,
                         m_placeholder.isEmpty() ? tr("No run open") : m_placeholder);
        return;
    }
    const TimelineMapping m = mapping(area);
    const QRectF plot(m.left, m.top, m.width, m.height);
    // Zoomed out (more x than pixel columns), each column shows the envelope of memory over
    // the x's it covers: filled up to the lowest total, washed lighter from there to the
    // highest. Every layer keeps inside it.
    TimelinePaintContext context = paintContext(m);
    context.envelope = TimelineEnvelopePainter::columns(*m_layout, m);
    const TimelineEnvelopePainter envelope(context);
    const TimelineStepPainter steps(context);
    const TimelineOverlayPainter marks(context);
    const TimelineFramePainter frame(context);

    QVector<LegendEntry> entries = legend();
    if (context.zoomedOut()) {
        entries.push_back(
            {tr("Rose and fell within a pixel column"), TimelineColors::rangeLegend()});
    }
    frame.paintHeader(painter, area, entries, &m_reservedLine);

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
    if (m_plotMode == PlotMode::Categories) {
        TimelineCategoryPainter(context).paint(painter);
    } else {
        envelope.paintBase(painter);
        envelope.paintSummarizedBand(painter);
        TimelineAllocationPainter(context).paint(painter);
    }
    envelope.paintRange(painter);
    if (m_plotMode == PlotMode::Allocations) {
        TimelineAllocationPainter(context).paintHighlighted(painter, m_highlighted);
    }
    envelope.paintTotalLine(painter);
    steps.paintStepLines(painter);
    m_reservedLine.paint(painter, m);
    const TimelineAnnotationPainter regions(context);
    if (m_filter) {
        regions.paintFilter(painter, xOfEvent(m_filter->first), xOfEvent(m_filter->last));
    }
    if (m_annotationsVisible) {
        regions.paintAnnotations(painter, annotations());
    }
    marks.paintCapacityAndOom(painter);
    if (overlays) {
        paintOverlays(painter, m);
    }
    painter.restore();

    painter.setPen(QPen(QColor(0, 0, 0, 90), 0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(plot);
    marks.paintPeak(painter, m.top - TimelineFramePainter::kStrip + 2);
    frame.paintAxes(painter, area, detailText());
    m_stats.milliseconds = double(timer.nsecsElapsed()) / 1e6;
}

void TimelineView::updateHover(const QPointF& pos, const QPoint& global_pos) {
    if (m_plotMode == PlotMode::Categories) {
        // A line at the cursor and the bytes of each category there.
        QString text;
        const bool inside = m_layout && plotRect(QRectF(rect())).contains(pos);
        m_hoverPx = inside ? pos.x() : -1;
        update();
        if (inside) {
            text = categoryTooltipText(int64_t(std::floor(mapping().pixelToX(pos.x()))));
        }
        if (text.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(global_pos, text, this);
        }
        return;
    }
    const int64_t a = allocationAt(pos);
    if (a != m_hovered) {
        setHovered(a);
        update();
    }
    QString text;
    if (a >= 0) {
        text = tooltipText(a);
    } else if (m_layout && plotRect(QRectF(rect())).contains(pos)) {
        const TimelineMapping m = mapping();
        const double x = m.pixelToX(pos.x());
        if (m_layout->inSummarizedBand(x, m.pixelToBytes(pos.y()))) {
            text = tooltipText(-1, int64_t(std::floor(x)));
        }
    }
    if (text.isEmpty()) {
        QToolTip::hideText();
    } else {
        QToolTip::showText(global_pos, text, this);
    }
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    if (!m_layout || m_layout->xCount() == 0) {
        return;
    }
    const double notches = event->angleDelta().y() / 120.0;
    if (notches == 0) {
        return;
    }
    const double limit = double(m_layout->xCount());
    const TimelineMapping zoomed =
        mapping().zoomedAt(event->position().x(), std::pow(1.25, notches), 0, limit, kMinimumSpan);
    setVisibleRange(zoomed.x0, zoomed.x1);
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ControlModifier) &&
        m_layout) {
        // Ctrl+drag: a range of events for the range filter.
        m_banding = true;
        m_filtering = true;
        m_bandFrom = m_bandTo = event->position().x();
        update();
        return;
    }
    m_filtering = false;
    const bool band =
        event->button() == Qt::RightButton ||
        (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    if (band && m_layout) {
        // Rubber band: the release zooms to the columns it spans.
        m_banding = true;
        m_bandFrom = m_bandTo = event->position().x();
        update();
        return;
    }
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    m_pressed = true;
    m_dragging = false;
    m_pressPos = event->position();
    m_pressX0 = m_x0;
    m_pressX1 = m_x1;
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    if (m_banding) {
        m_bandTo = event->position().x();
        update();
        return;
    }
    if (m_pressed && (event->buttons() & Qt::LeftButton)) {
        const QPointF delta = event->position() - m_pressPos;
        if (!m_dragging && std::abs(delta.x()) + std::abs(delta.y()) >= 4) {
            m_dragging = true;
            setCursor(Qt::ClosedHandCursor);
        }
        if (m_dragging && m_layout) {
            const TimelineMapping m = mapping().withWindow(m_pressX0, m_pressX1);
            const TimelineMapping panned =
                m.pannedBy(delta.x(), 0, std::max<double>(double(m_layout->xCount()), 1.0));
            setVisibleRange(panned.x0, panned.x1);
        }
        return;
    }
    updateHover(event->position(), event->globalPosition().toPoint());
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    if (m_banding) {
        m_banding = false;
        update();
        const TimelineMapping m = mapping();
        const double lo = std::clamp(std::min(m_bandFrom, m_bandTo), m.left, m.left + m.width);
        const double hi = std::clamp(std::max(m_bandFrom, m_bandTo), m.left, m.left + m.width);
        if (m_filtering) {
            m_filtering = false;
            if (hi - lo >= 3 && m_layout->xCount() > 0) {
                const auto [first, last] = eventRangeOfX(m.pixelToX(lo), m.pixelToX(hi));
                emit rangeSelected(first, last);
                if (m_state) {
                    m_state->setFilterFromX(*m_layout, m.pixelToX(lo), m.pixelToX(hi),
                                            RunDocument::FilterOrigin::Timeline);
                }
            }
            return;
        }
        if (hi - lo >= 3) {  // a click is no band
            double x0 = m.pixelToX(lo);
            double x1 = m.pixelToX(hi);
            if (x1 - x0 < kMinimumSpan) {
                const double centre = (x0 + x1) / 2;
                x0 = centre - kMinimumSpan / 2;
                x1 = centre + kMinimumSpan / 2;
            }
            setVisibleRange(x0, x1);
        }
        return;
    }
    if (event->button() != Qt::LeftButton || !m_pressed) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    m_pressed = false;
    if (m_dragging) {
        m_dragging = false;
        unsetCursor();
        return;
    }
    if (m_plotMode == PlotMode::Allocations) {
        selectAllocation(allocationAt(event->position()));
    }
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        resetView();
    }
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    if (!m_layout) {
        QWidget::keyPressEvent(event);
        return;
    }
    const TimelineMapping m = mapping();
    const double limit = std::max<double>(double(m_layout->xCount()), 1.0);
    const double centre = m.left + m.width / 2;
    switch (event->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal: {
            const auto z = m.zoomedAt(centre, 1.5, 0, limit, kMinimumSpan);
            setVisibleRange(z.x0, z.x1);
            break;
        }
        case Qt::Key_Minus: {
            const auto z = m.zoomedAt(centre, 1 / 1.5, 0, limit, kMinimumSpan);
            setVisibleRange(z.x0, z.x1);
            break;
        }
        case Qt::Key_Left:
        case Qt::Key_Right: {
            const double dx = (event->key() == Qt::Key_Left ? 1 : -1) * m.width / 8;
            const auto p = m.pannedBy(dx, 0, limit);
            setVisibleRange(p.x0, p.x1);
            break;
        }
        case Qt::Key_Home:
        case Qt::Key_0:
            resetView();
            break;
        case Qt::Key_Escape:
            selectAllocation(-1);
            break;
        default:
            QWidget::keyPressEvent(event);
    }
}

void TimelineView::leaveEvent(QEvent* event) {
    if (m_hovered >= 0 || m_hoverPx >= 0) {
        setHovered(-1);
        m_hoverPx = -1;
        update();
    }
    QWidget::leaveEvent(event);
}

void TimelineView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        rebuildColors();    // legend names
        invalidateChart();  // every label is drawn, so a repaint retranslates
    }
    QWidget::changeEvent(event);
}

}  // namespace memscope
