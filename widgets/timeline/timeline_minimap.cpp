#include "timeline/timeline_minimap.h"

#include "run_document.h"

#include "layout/timeline_layout.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPolygonF>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace memscope {
namespace {

constexpr double k_grip = 5;      // pixels either side of an edge that grab it
constexpr double k_minBrush = 6;  // the brush is drawn at least this wide
constexpr double k_minSpan = 8;   // smallest window, in events (as TimelineView::kMinimumSpan)

}  // namespace

TimelineMinimap::TimelineMinimap(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("timeline_minimap"));
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setToolTip(tr("Overview of the whole run: drag the brush to pan, drag its edges to zoom"));
}

TimelineMinimap::TimelineMinimap(RunDocument* document, QWidget* parent) : TimelineMinimap(parent) {
    setViewState(document);
}

TimelineMinimap::~TimelineMinimap() = default;

QSize TimelineMinimap::sizeHint() const {
    return {600, 56};
}

QSize TimelineMinimap::minimumSizeHint() const {
    return {120, 36};
}

void TimelineMinimap::setTimelineLayout(std::shared_ptr<const TimelineLayout> layout) {
    m_layout = std::move(layout);
    rebuildColumns();
    followFilter();
    update();
}

void TimelineMinimap::setTimeAxis(bool on) {
    if (on == m_timeAxis) {
        return;
    }
    m_timeAxis = on;
    rebuildColumns();
    update();
}

void TimelineMinimap::setWindow(double x0, double x1) {
    if (x0 == m_x0 && x1 == m_x1) {
        return;
    }
    m_x0 = x0;
    m_x1 = x1;
    update();
}

double TimelineMinimap::axisEnd() const {
    return m_layout ? std::max<double>(double(m_layout->xCount()), 1.0) : 1.0;
}

TimelineMapping TimelineMinimap::mapping() const {
    TimelineMapping m;
    m.x0 = 0;
    m.x1 = axisEnd();
    m.left = 1;
    m.top = 2;
    m.width = std::max(double(width()) - 2, 1.0);
    m.height = std::max(double(height()) - 4, 1.0);
    m.ymax = m_layout ? std::max<double>(double(m_layout->peakBytes()), 1.0) * 1.05 : 1.0;
    if (m_timeAxis && m_layout && m_layout->xCount() > 0) {
        m = m.withTimeAxis(&m_layout->times(), m_layout->xCount(), m_layout->endTime());
    }
    return m;
}

QRectF TimelineMinimap::brushRect() const {
    const TimelineMapping m = mapping();
    double left = m.xToPixel(m_x0);
    double right = m.xToPixel(m_x1);
    if (right - left < k_minBrush) {
        const double centre = (left + right) / 2;
        left = centre - k_minBrush / 2;
        right = centre + k_minBrush / 2;
    }
    return QRectF(QPointF(left, 0), QPointF(right, height()));
}

void TimelineMinimap::rebuildColumns() {
    m_columns.clear();
    m_minima.clear();
    if (!m_layout || m_layout->xCount() == 0) {
        return;
    }
    const TimelineMapping m = mapping();
    const int columns = std::max(1, int(std::ceil(m.width)));
    m_columns.assign(size_t(columns), -1);
    m_minima.assign(size_t(columns), -1);
    const int64_t x_count = m_layout->xCount();
    for (int c = 0; c < columns; ++c) {
        const auto lo = int64_t(std::floor(m.pixelToX(m.left + c)));
        const auto hi = std::max(lo + 1, int64_t(std::ceil(m.pixelToX(m.left + c + 1))));
        if (lo < x_count) {
            m_columns[size_t(c)] = m_layout->maxTotal(lo, std::min(hi, x_count));
            m_minima[size_t(c)] = m_layout->minTotal(lo, std::min(hi, x_count));
        }
    }
}

void TimelineMinimap::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    rebuildColumns();
}

void TimelineMinimap::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), QColor(250, 250, 251));
    const TimelineMapping m = mapping();
    if (!m_columns.empty()) {
        // The column's highest total, lightly filled, then its lowest, filled solid: what stayed
        // live throughout the column.
        auto curve = [&](const std::vector<int64_t>& values) {
            QPolygonF area;
            area << QPointF(m.left, m.top + m.height);
            for (size_t c = 0; c < values.size(); ++c) {
                if (values[c] < 0) {
                    continue;
                }
                const double y = m.bytesToPixel(double(values[c]));
                area << QPointF(m.left + double(c), y) << QPointF(m.left + double(c) + 1, y);
            }
            area << QPointF(area.last().x(), m.top + m.height);
            return area;
        };
        painter.setPen(QPen(QColor(0x4E, 0x79, 0xA7), 0));
        painter.setBrush(QColor(0x4E, 0x79, 0xA7, 60));
        painter.drawPolygon(curve(m_columns));
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(0x4E, 0x79, 0xA7, 110));
        painter.drawPolygon(curve(m_minima));
    }
    if (m_layout) {
        // Outside the window dimmed, the brush outlined with its two grips.
        const QRectF brush = brushRect();
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(0, 0, 0, 40));
        painter.drawRect(QRectF(QPointF(0, 0), QPointF(brush.left(), height())));
        painter.drawRect(QRectF(QPointF(brush.right(), 0), QPointF(width(), height())));
        painter.setBrush(QColor(30, 90, 200, 30));
        painter.setPen(QPen(QColor(30, 90, 200), 1.5));
        painter.drawRect(brush.adjusted(0.75, 0.75, -0.75, -0.75));
        painter.setBrush(QColor(30, 90, 200));
        painter.setPen(Qt::NoPen);
        const double grip_h = std::min(18.0, brush.height() * 0.5);
        const double mid = brush.center().y();
        painter.drawRect(QRectF(brush.left(), mid - grip_h / 2, 3, grip_h));
        painter.drawRect(QRectF(brush.right() - 3, mid - grip_h / 2, 3, grip_h));
    }
    if (m_layout && (m_filterX1 > m_filterX0 || m_selecting)) {
        // The filter's range (or the one being chosen): orange edges over a light band.
        const TimelineMapping m = mapping();
        const double a = m_selecting ? std::min(m_pressPx, m_selectPx) : m.xToPixel(m_filterX0);
        const double b = m_selecting ? std::max(m_pressPx, m_selectPx) : m.xToPixel(m_filterX1);
        painter.setPen(QPen(QColor(200, 110, 0), 1.5));
        painter.setBrush(QColor(230, 140, 20, 45));
        painter.drawRect(QRectF(QPointF(a, 1), QPointF(std::max(b, a + 1), height() - 1)));
    }
    painter.setPen(QColor(0, 0, 0, 70));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5));
}

TimelineMinimap::Grip TimelineMinimap::gripAt(double px) const {
    if (!m_layout) {
        return Grip::None;
    }
    const QRectF brush = brushRect();
    if (std::abs(px - brush.left()) <= k_grip && brush.width() > 2 * k_grip) {
        return Grip::Left;
    }
    if (std::abs(px - brush.right()) <= k_grip && brush.width() > 2 * k_grip) {
        return Grip::Right;
    }
    if (px >= brush.left() && px <= brush.right()) {
        return Grip::Move;
    }
    return Grip::None;
}

void TimelineMinimap::requestWindow(double x0, double x1) {
    const double end = axisEnd();
    TimelineMapping m = mapping().withWindow(x0, x1);
    m = m.clampedTo(0, end);
    if (m.x0 == m_x0 && m.x1 == m_x1) {
        return;
    }
    m_x0 = m.x0;
    m_x1 = m.x1;
    update();
    emit windowChanged(m_x0, m_x1);
}

void TimelineMinimap::moveWindow(double x0, double x1, double dx) {
    // dx pixels of the minimap are dx / width of the whole axis (in time on a time axis).
    const TimelineMapping m = mapping();
    const double shift = dx * m.axisSpan() / m.width;
    const double u0 = m.toAxis(x0);
    const double s = m.toAxis(x1) - u0;
    const double from = std::clamp(u0 + shift, m.u0(), m.u1() - s);
    requestWindow(m.fromAxis(from), m.fromAxis(from + s));
}

void TimelineMinimap::setViewState(RunDocument* state) {
    if (m_state) {
        disconnect(m_state, nullptr, this, nullptr);
        disconnect(this, nullptr, m_state, nullptr);
    }
    m_state = state;
    if (!m_state) {
        setFilterX(0, 0);
        return;
    }
    connect(m_state, &RunDocument::visibleRangeChanged, this, &TimelineMinimap::setWindow);
    connect(this, &TimelineMinimap::windowChanged, m_state, &RunDocument::setVisibleRange);
    connect(m_state, &RunDocument::filterChanged, this, &TimelineMinimap::followFilter);
    connect(m_state, &RunDocument::timeAxisChanged, this, &TimelineMinimap::setTimeAxis);
    // The document's layout, and the window over it.
    connect(m_state, &RunDocument::layoutChanged, this, [this] {
        setTimelineLayout(m_state->layout());
        setWindow(m_state->visibleX0(), m_state->visibleX1());
    });
    setTimeAxis(m_state->timeAxis());
    if (m_state->layout()) {
        setTimelineLayout(m_state->layout());
        setWindow(m_state->visibleX0(), m_state->visibleX1());
    }
    followFilter();
}

void TimelineMinimap::followFilter() {
    std::optional<RangeFilter> f;
    if (m_state) {
        f = m_state->filter();
    }
    if (f && m_layout) {
        setFilterX(RunDocument::xOfEvent(*m_layout, f->first),
                   RunDocument::xOfEvent(*m_layout, f->last));
    } else {
        setFilterX(0, 0);
    }
}

void TimelineMinimap::setFilterX(double x0, double x1) {
    if (x0 == m_filterX0 && x1 == m_filterX1) {
        return;
    }
    m_filterX0 = x0;
    m_filterX1 = x1;
    update();
}

void TimelineMinimap::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !m_layout) {
        QWidget::mousePressEvent(event);
        return;
    }
    const double px = event->position().x();
    if (event->modifiers() & Qt::ControlModifier) {
        m_selecting = true;
        m_pressPx = m_selectPx = px;
        update();
        return;
    }
    m_grip = gripAt(px);
    if (m_grip == Grip::None) {
        // Centre the window where pressed, then drag it from there.
        const TimelineMapping m = mapping();
        moveWindow(m_x0, m_x1, px - (m.xToPixel(m_x0) + m.xToPixel(m_x1)) / 2);
        m_grip = Grip::Move;
    }
    m_pressPx = px;
    m_pressX0 = m_x0;
    m_pressX1 = m_x1;
}

void TimelineMinimap::mouseMoveEvent(QMouseEvent* event) {
    const double px = event->position().x();
    if (m_selecting) {
        m_selectPx = px;
        update();
        return;
    }
    if (m_grip == Grip::None || !(event->buttons() & Qt::LeftButton)) {
        const Grip hover = gripAt(px);
        setCursor(hover == Grip::Left || hover == Grip::Right ? Qt::SizeHorCursor
                  : hover == Grip::Move                       ? Qt::OpenHandCursor
                                                              : Qt::ArrowCursor);
        return;
    }
    if (m_grip == Grip::Move) {
        moveWindow(m_pressX0, m_pressX1, px - m_pressPx);
        return;
    }
    const double end = axisEnd();
    const double x = std::clamp(mapping().pixelToX(px), 0.0, end);
    if (m_grip == Grip::Left) {
        requestWindow(std::min(x, m_pressX1 - k_minSpan), m_pressX1);
    } else {
        requestWindow(m_pressX0, std::max(x, m_pressX0 + k_minSpan));
    }
}

void TimelineMinimap::mouseReleaseEvent(QMouseEvent* event) {
    if (m_selecting && event->button() == Qt::LeftButton) {
        m_selecting = false;
        update();
        const TimelineMapping m = mapping();
        const double lo = std::min(m_pressPx, m_selectPx);
        const double hi = std::max(m_pressPx, m_selectPx);
        if (hi - lo >= 3 && m_layout) {
            const double x0 = std::max(0.0, m.pixelToX(lo));
            const double x1 = std::min(axisEnd(), m.pixelToX(hi));
            emit rangeSelected(x0, x1);
            if (m_state) {
                m_state->setFilterFromX(*m_layout, x0, x1, RunDocument::FilterOrigin::Minimap);
            }
        }
        return;
    }
    if (event->button() == Qt::LeftButton) {
        m_grip = Grip::None;
    }
    QWidget::mouseReleaseEvent(event);
}

void TimelineMinimap::wheelEvent(QWheelEvent* event) {
    const double notches = event->angleDelta().y() / 120.0;
    if (!m_layout || notches == 0) {
        return;
    }
    // Zoom the brush around its centre (up zooms in, as on the timeline).
    const TimelineMapping m = mapping();
    const double u0 = m.toAxis(m_x0);
    const double u1 = m.toAxis(m_x1);
    const double centre = (u0 + u1) / 2;
    const double full = m.axisSpan();
    const double min_span = m.timeAxis() ? k_minSpan * full / axisEnd() : k_minSpan;
    const double s =
        std::clamp((u1 - u0) / std::pow(1.25, notches), std::min(min_span, full), full);
    const double from = std::clamp(centre - s / 2, m.u0(), m.u1() - s);
    requestWindow(m.fromAxis(from), m.fromAxis(from + s));
    event->accept();
}

}  // namespace memscope
