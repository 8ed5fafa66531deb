#include "timeline/timeline_view.h"

#include "common/timeline_labels.h"
#include "painters/timeline_allocation_painter.h"
#include "painters/timeline_annotation_painter.h"
#include "painters/timeline_category_painter.h"
#include "painters/timeline_envelope_painter.h"
#include "painters/timeline_frame_painter.h"
#include "painters/timeline_overlay_painter.h"
#include "painters/timeline_step_painter.h"
#include "run_document.h"
#include "run_indexes.h"
#include "timeline/timeline_tooltips.h"

#include "layout/timeline_layout.h"
#include "trace/trace.h"

#include <QBackingStore>
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QLocale>
#include <QPaintEngine>
#include <QPainter>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <vector>

namespace memscope {

static_assert(int(TimelineView::ColorMode::Allocation) == int(TimelineColors::Scheme::Allocation) &&
                  int(TimelineView::ColorMode::Category) == int(TimelineColors::Scheme::Category) &&
                  int(TimelineView::ColorMode::Module) == int(TimelineColors::Scheme::Module) &&
                  int(TimelineView::ColorMode::Phase) == int(TimelineColors::Scheme::Phase),
              "TimelineColors::Scheme follows TimelineView::ColorMode");

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent),
      m_reservedLine(std::make_shared<ReservedLinePainter>()),
      m_colors(std::make_shared<TimelineColors>()) {
    setObjectName(QStringLiteral("timeline_view"));
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(320, 170);  // 170: room for the search row without a taller window
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_renderPool.setMaxThreadCount(1);
    m_renderWatcher = new QFutureWatcher<TimelineChartRenderer::Result>(this);
    connect(m_renderWatcher, &QFutureWatcherBase::finished, this, &TimelineView::onRenderFinished);
}

TimelineView::TimelineView(RunDocument* document, QWidget* parent) : TimelineView(parent) {
    setViewState(document);
}

TimelineView::~TimelineView() {
    // A render still running reads only what it holds; wait for it before the pool goes.
    m_renderWatcher->disconnect(this);
    m_renderPool.waitForDone();
}

void TimelineView::setTrace(std::shared_ptr<const Trace> trace,
                            std::shared_ptr<TimelineLayout> layout) {
    m_trace = std::move(trace);
    m_legendTipOf = nullptr;
    m_layout = std::move(layout);
    if (m_trace && !m_layout) {
        m_layout = std::make_shared<TimelineLayout>(*m_trace);
    }
    if (!m_trace) {
        m_layout.reset();
    }
    ++m_epoch;  // a render of the previous trace still running is dropped
    m_live = false;
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
        waitForRenderOf(layout.get());
        layout->setDetail(old_detail);
    }
    m_live = true;
    const size_t old_events = m_trace->events.count();
    m_trace = std::move(trace);
    m_legendTipOf = nullptr;
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
    writableReservedLine().setTrace(m_trace.get(), m_layout.get());
    rebuildColors();
    ++m_data;  // the annotations are computed again when next drawn
    invalidateChart();
}

void TimelineView::extendDerived(size_t old_events) {
    // Only what the new events add: the earlier ones and their places on the x axis stay.
    addOomMarks(old_events);
    writableReservedLine().extend(m_trace.get(), m_layout.get());
    writableColors().extend(m_trace.get(), m_layout.get());
    ++m_data;
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
    writableColors().rebuild(m_trace.get(), m_layout.get(),
                             TimelineColors::Scheme(int(m_colorMode)), documentIndexes());
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

TimelineColors& TimelineView::writableColors() {
    if (m_colorsShared) {
        m_colors = std::make_shared<TimelineColors>(*m_colors);
        m_colorsShared = false;
    }
    return *m_colors;
}

ReservedLinePainter& TimelineView::writableReservedLine() {
    if (m_reservedShared) {
        m_reservedLine = std::make_shared<ReservedLinePainter>(*m_reservedLine);
        m_reservedShared = false;
    }
    return *m_reservedLine;
}

void TimelineView::waitForRenderOf(const TimelineLayout* layout) {
    if (m_renderBusy && layout && layout == m_renderLayout) {
        waitForRender();
    }
}

void TimelineView::setChartRendering(ChartRendering mode) {
    m_rendering = mode;
    update();
}

void TimelineView::waitForRender() {
    if (m_renderBusy) {
        m_renderWatcher->waitForFinished();
        onRenderFinished();
    }
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
    return m_colors->allocationColor(a);
}

QVector<TimelineView::LegendEntry> TimelineView::legend() const {
    return m_colors->legend(m_layout.get(), m_plotMode == PlotMode::Categories);
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
    waitForRenderOf(m_layout.get());  // it reads the drawn allocations
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
    return TimelineChartRenderer::plotRect(area);
}

TimelineMapping TimelineView::mapping(const QRectF& area) const {
    return TimelineChartRenderer::mapping(m_trace.get(), m_layout.get(), *m_reservedLine, m_x0,
                                          m_x1, m_timeAxis, area);
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
    if (!annotationsReady()) {
        m_annotations = std::make_shared<const std::vector<TraceAnnotation>>(
            m_trace ? TraceAnnotations::fromTrace(*m_trace) : std::vector<TraceAnnotation>());
        m_annotationsOf = m_data;
    }
    return *m_annotations;
}

void TimelineView::setAnnotationsVisible(bool on) {
    if (on == m_annotationsVisible) {
        return;
    }
    m_annotationsVisible = on;
    invalidateChart();
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
    return TimelineTooltips::categoryText(m_layout.get(), *m_colors, x);
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

TimelineView::ChartKey TimelineView::currentKey() const {
    ChartKey key;
    key.epoch = m_epoch;
    key.generation = m_generation;
    key.x0 = m_x0;
    key.x1 = m_x1;
    key.dpr = devicePixelRatioF();
    key.pixels = QSize(int(std::ceil(width() * key.dpr)), int(std::ceil(height() * key.dpr)));
    return key;
}

bool TimelineView::renderInBackground() const {
    switch (m_rendering) {
        case ChartRendering::Background:
            return true;
        case ChartRendering::Synchronous:
            return false;
        case ChartRendering::Automatic:
            break;
    }
    return m_live || m_lastChartMs > kBackgroundMs;
}

void TimelineView::paintEvent(QPaintEvent*) {
    QElapsedTimer timer;
    timer.start();
    QPainter painter(this);
    const QRectF area(rect());
    if (!m_layout) {
        paintAll(painter, area);
        m_lastPaintEventMs = double(timer.nsecsElapsed()) / 1e6;
        return;
    }
    // The chart is redrawn only when what it shows changed; hover and selection outlines and
    // the rubber band are painted over the kept image.
    const ChartKey key = currentKey();
    m_lastPaintCached = !m_chart.isNull() && m_chartKey == key;
    // On screen (not QWidget::render or grab, which must get the complete chart) and with an
    // image of this trace to show meanwhile, a render in the background.
    QBackingStore* store = backingStore();
    const bool on_screen = store && painter.paintEngine() &&
                           painter.paintEngine()->paintDevice() == store->paintDevice();
    if (!m_lastPaintCached && on_screen && renderInBackground() && !m_chart.isNull() &&
        m_chartKey.epoch == m_epoch) {
        requestRender();
        paintPreviousChart(painter, area);
    } else if (!m_lastPaintCached && !on_screen) {
        paintAll(painter, area, false);  // render/grab: painted here, the kept image left alone
    } else {
        if (!m_lastPaintCached) {
            m_chart = QImage(key.pixels, QImage::Format_ARGB32_Premultiplied);
            m_chart.setDevicePixelRatio(key.dpr);
            m_chart.fill(Qt::white);
            QPainter chart(&m_chart);
            chart.setFont(font());
            paintAll(chart, area, false);
            m_chartKey = key;
            m_chartSerial = ++m_serial;
            m_lastChartMs = m_stats.milliseconds;
        }
        painter.drawImage(QPointF(0, 0), m_chart);
    }
    const TimelineMapping m = mapping(area);
    painter.save();
    painter.setClipRect(QRectF(m.left, m.top, m.width, m.height).adjusted(0, 0, 1, 1));
    paintOverlays(painter, m);
    painter.restore();
    m_lastPaintEventMs = double(timer.nsecsElapsed()) / 1e6;
}

void TimelineView::paintPreviousChart(QPainter& painter, const QRectF& area) {
    const qreal dpr = m_chart.devicePixelRatio();
    if (m_chartKey.pixels != currentKey().pixels || m_chartKey.dpr != devicePixelRatioF()) {
        painter.drawImage(area, m_chart);  // resized: stretched until the new one comes
        return;
    }
    painter.drawImage(QPointF(0, 0), m_chart);
    // Only the window moved (a pan or zoom, not new data): its plot where its x's are now. The
    // axes keep their old labels until the new image comes.
    if (m_chartKey.generation != m_generation || m_timeAxis ||
        (m_chartKey.x0 == m_x0 && m_chartKey.x1 == m_x1) || !(m_x1 > m_x0)) {
        return;
    }
    const QRectF plot = plotRect(area);
    const double scale = plot.width() / (m_x1 - m_x0);
    const QRectF target(plot.left() + (m_chartKey.x0 - m_x0) * scale, plot.top(),
                        (m_chartKey.x1 - m_chartKey.x0) * scale, plot.height());
    const QRectF source(plot.left() * dpr, plot.top() * dpr, plot.width() * dpr,
                        plot.height() * dpr);
    painter.save();
    painter.setClipRect(plot.adjusted(0, 0, 1, 1));
    painter.fillRect(plot, Qt::white);
    painter.drawImage(target, m_chart, source);
    painter.restore();
}

void TimelineView::requestRender() {
    if (m_renderBusy) {
        return;  // its end repaints, which asks for the state then (the latest only)
    }
    auto input = std::make_shared<const TimelineChartRenderer::Input>(chartInput());
    m_renderKey = currentKey();
    m_renderSerial = ++m_serial;
    m_renderLayout = m_layout.get();
    m_renderData = m_data;
    m_colorsShared = true;
    m_reservedShared = true;
    m_renderBusy = true;
    ++m_renderCounts.started;
    const QSize size = this->size();
    const qreal dpr = m_renderKey.dpr;
    m_renderWatcher->setFuture(
        QtConcurrent::run(&m_renderPool, [input = std::move(input), size, dpr]() mutable {
            TimelineChartRenderer::Result result = TimelineChartRenderer::render(*input, size, dpr);
            // Let go of the state before the GUI thread learns that the render ended: from then
            // on it writes its colours and layout in place again.
            input.reset();
            return result;
        }));
}

void TimelineView::onRenderFinished() {
    if (!m_renderBusy || !m_renderWatcher->isFinished()) {
        return;
    }
    m_renderBusy = false;
    m_renderLayout = nullptr;
    m_colorsShared = false;
    m_reservedShared = false;
    const TimelineChartRenderer::Result result = m_renderWatcher->result();
    m_renderWatcher->setFuture(QFuture<TimelineChartRenderer::Result>());
    const ChartKey now = currentKey();
    // Shown unless an image of a later state is shown already, or it is of another trace or
    // size. A result behind the newest data is still newer than the image shown: it is shown,
    // and the paint that follows renders the newest (so that a render slower than the data
    // arrives still shows progress).
    const bool usable = m_renderKey.epoch == m_epoch && m_renderKey.pixels == now.pixels &&
                        m_renderKey.dpr == now.dpr && m_renderSerial > m_chartSerial;
    if (usable) {
        m_chart = result.image;
        m_chartKey = m_renderKey;
        m_chartSerial = m_renderSerial;
        m_stats = result.stats;
        ++m_renderCounts.shown;
    } else {
        ++m_renderCounts.dropped;
    }
    if (result.annotations && m_renderData == m_data) {  // of the trace as it is now
        m_annotations = result.annotations;
        m_annotationsOf = m_data;
    }
    m_lastChartMs = result.stats.milliseconds;
    update();
}

TimelinePaintContext TimelineView::paintContext(const TimelineMapping& m) {
    TimelinePaintContext context(m_trace.get(), *m_layout, *m_colors, m);
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

TimelineChartRenderer::Input TimelineView::chartInput() const {
    TimelineChartRenderer::Input input;
    input.font = font();
    if (!m_layout) {
        input.placeholder = m_placeholder.isEmpty() ? tr("No run open") : m_placeholder;
        input.placeholderColor = palette().color(QPalette::Disabled, QPalette::WindowText);
        return input;
    }
    input.trace = m_trace;
    input.layout = m_layout;
    input.colors = m_colors;
    input.reserved = m_reservedLine;
    input.ooms = std::make_shared<const std::vector<TimelineOomMark>>(m_ooms);
    if (m_annotationsVisible) {
        // They take a pass over every span: on a live run's refresh, the background render
        // computes them (TimelineChartRenderer::render), not the GUI thread.
        if (annotationsReady()) {
            input.annotations = m_annotations;
        } else {
            input.computeAnnotations = true;
        }
    }
    if (m_plotMode == PlotMode::Allocations) {
        input.highlighted = m_highlighted;
    }
    if (m_filter) {
        input.filterX = std::make_pair(xOfEvent(m_filter->first), xOfEvent(m_filter->last));
    }
    input.categories = m_plotMode == PlotMode::Categories;
    input.timeAxis = m_timeAxis;
    input.x0 = m_x0;
    input.x1 = m_x1;
    input.detailText = detailText();
    input.rangeLegendText = tr("Rose and fell within a pixel column");
    return input;
}

void TimelineView::paintAll(QPainter& painter, const QRectF& area, bool overlays) {
    TimelineChartRenderer::Input input = chartInput();
    if (input.computeAnnotations) {  // painted here: computed here, and kept
        annotations();
        input.annotations = m_annotations;
        input.computeAnnotations = false;
    }
    if (overlays) {
        m_stats = TimelineChartRenderer::paint(
            input, painter, area,
            [this](QPainter& p, const TimelineMapping& m) { paintOverlays(p, m); });
    } else {
        m_stats = TimelineChartRenderer::paint(input, painter, area);
    }
}

}  // namespace memscope
