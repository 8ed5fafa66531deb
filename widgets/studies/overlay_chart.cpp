#include "studies/overlay_chart.h"

#include "layout/timeline_layout.h"
#include "layout/timeline_mapping.h"
#include "painters/timeline_frame_painter.h"
#include "trace/trace.h"

#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace memscope {

namespace {

constexpr double k_left = 78;
constexpr double k_right = 16;
constexpr double k_top = 34;
constexpr double k_bottom = 28;

QColor runColour(bool is_b) {
    return is_b ? QColor(230, 120, 20) : QColor(31, 100, 180);
}

}  // namespace

OverlayChart::OverlayChart(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("compare_overlay"));
    setMinimumHeight(200);
    setCursor(Qt::CrossCursor);
}

OverlayChart::~OverlayChart() = default;

void OverlayChart::setRuns(std::shared_ptr<const Trace> a,
                           std::shared_ptr<const TimelineLayout> layout_a,
                           std::shared_ptr<const Trace> b,
                           std::shared_ptr<const TimelineLayout> layout_b,
                           const StepAlignment& alignment, const QString& name_a,
                           const QString& name_b) {
    m_a = std::move(a);
    m_b = std::move(b);
    m_layoutA = std::move(layout_a);
    m_layoutB = std::move(layout_b);
    m_alignment = alignment;
    m_nameA = name_a;
    m_nameB = name_b;
    double peak = 1;
    for (const auto& [trace, layout] :
         {std::pair(m_a.get(), m_layoutA.get()), std::pair(m_b.get(), m_layoutB.get())}) {
        if (trace == nullptr || layout == nullptr) {
            continue;
        }
        peak = std::max(peak, double(layout->peakBytes()));
        if (trace->hasCachingAllocator()) {
            for (const int64_t r : trace->events.reserved) {
                peak = std::max(peak, double(r));
            }
        }
    }
    m_top = TimelineMapping::niceByteTop(peak, 6);
    m_picked = -1;
    update();
}

void OverlayChart::clear() {
    m_a.reset();
    m_b.reset();
    m_layoutA.reset();
    m_layoutB.reset();
    m_picked = -1;
    update();
}

void OverlayChart::setPickedX(double x) {
    m_picked = x;
    update();
}

QRectF OverlayChart::plotRect() const {
    return QRectF(k_left, k_top, std::max(1.0, width() - k_left - k_right),
                  std::max(1.0, height() - k_top - k_bottom));
}

double OverlayChart::xToPixel(double x) const {
    const QRectF plot = plotRect();
    const double count = m_layoutA ? std::max<double>(1, double(m_layoutA->xCount())) : 1;
    return plot.left() + x / count * plot.width();
}

double OverlayChart::bytesToPixel(double bytes) const {
    const QRectF plot = plotRect();
    return plot.bottom() - bytes / m_top * plot.height();
}

void OverlayChart::paintRun(QPainter& painter, const TimelineLayout& layout, const Trace& trace,
                            bool is_b, const QColor& colour) const {
    const QRectF plot = plotRect();
    const int columns = int(plot.width());
    const double count_a = double(m_layoutA->xCount());
    const int64_t count = layout.xCount();
    if (count == 0 || columns <= 0) {
        return;
    }
    QPainterPath top_line;
    QPainterPath reserved_line;
    QColor wash = colour;
    wash.setAlpha(45);
    const bool reserved = trace.hasCachingAllocator();
    for (int c = 0; c < columns; ++c) {
        double u0 = count_a * c / columns;
        double u1 = count_a * (c + 1) / columns;
        if (is_b) {
            u0 = m_alignment.aToB(u0);
            u1 = m_alignment.aToB(u1);
        }
        const int64_t x0 = std::clamp<int64_t>(int64_t(std::floor(u0)), 0, count - 1);
        const int64_t x1 = std::clamp<int64_t>(int64_t(std::ceil(u1)), x0 + 1, count);
        const double hi = bytesToPixel(double(layout.maxTotal(x0, x1)));
        const double lo = bytesToPixel(double(layout.minTotal(x0, x1)));
        const double px = plot.left() + c;
        painter.fillRect(QRectF(px, hi, 1, std::max(0.0, lo - hi)), wash);
        if (c == 0) {
            top_line.moveTo(px, hi);
        } else {
            top_line.lineTo(px, hi);
        }
        if (reserved) {
            const int64_t event = layout.eventAt(x1 - 1);
            const double ry = bytesToPixel(double(trace.events.reserved[size_t(event)]));
            if (c == 0) {
                reserved_line.moveTo(px, ry);
            } else {
                reserved_line.lineTo(px, ry);
            }
        }
    }
    painter.setPen(QPen(colour, 1.6));
    painter.drawPath(top_line);
    if (reserved) {
        painter.setPen(QPen(colour, 1.2, Qt::DashLine));
        painter.drawPath(reserved_line);
    }
}

void OverlayChart::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), Qt::white);
    const QRectF plot = plotRect();
    if (!m_a || !m_b || !m_layoutA || !m_layoutB) {
        painter.setPen(QColor(120, 120, 120));
        painter.drawText(rect(), Qt::AlignCenter, tr("Compare two runs to see them on one axis."));
        return;
    }
    // Grid and byte axis.
    const QFontMetricsF fm(painter.font());
    const double step = TimelineMapping::byteTickStep(m_top, std::max(2, int(plot.height() / 60)));
    for (const double tick : TimelineMapping::ticks(0, m_top, step)) {
        const double y = std::round(bytesToPixel(tick)) + 0.5;
        painter.setPen(QPen(QColor(0, 0, 0, 28), 0));
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        painter.setPen(QColor(70, 70, 70));
        const QString label =
            tick == 0 ? QStringLiteral("0") : TimelineFramePainter::byteTickLabel(tick, m_top);
        painter.drawText(QRectF(0, y - fm.height() / 2, plot.left() - 6, fm.height()),
                         Qt::AlignRight | Qt::AlignVCenter, label);
    }
    // A's steps: a dashed line and a label where each begins.
    painter.save();
    painter.setClipRect(plot.adjusted(0, -k_top, 0, 0));
    int32_t previous = -1;
    double free_from = plot.left();
    for (const PhaseInterval& p : m_a->phases) {
        if (p.step == previous || p.step < 1) {
            previous = p.step;
            continue;
        }
        previous = p.step;
        const double px = std::round(xToPixel(double(m_layoutA->xAtTime(p.begin_ns)))) + 0.5;
        painter.setPen(QPen(QColor(60, 60, 60, 100), 0, Qt::DashLine));
        painter.drawLine(QPointF(px, plot.top()), QPointF(px, plot.bottom()));
        const QString text = tr("step %1").arg(p.step);
        if (px + 3 >= free_from) {
            painter.setPen(QColor(60, 60, 60));
            painter.drawText(QPointF(px + 3, plot.top() - 4), text);
            free_from = px + 3 + fm.horizontalAdvance(text) + 8;
        }
    }
    painter.restore();
    painter.save();
    painter.setClipRect(plot.adjusted(0, 0, 1, 1));
    painter.setRenderHint(QPainter::Antialiasing, true);
    paintRun(painter, *m_layoutA, *m_a, false, runColour(false));
    paintRun(painter, *m_layoutB, *m_b, true, runColour(true));
    if (m_picked >= 0) {
        const double px = xToPixel(m_picked);
        painter.setPen(QPen(QColor(200, 30, 30), 1.5));
        painter.drawLine(QPointF(px, plot.top()), QPointF(px, plot.bottom()));
    }
    painter.restore();
    painter.setPen(QPen(QColor(0, 0, 0, 90), 0));
    painter.drawRect(plot);
    // Legend in the header line.
    double x = plot.left();
    const double y = 14;
    auto entry = [&](const QColor& colour, const QString& text, bool dashed) {
        painter.setPen(QPen(colour, 2, dashed ? Qt::DashLine : Qt::SolidLine));
        painter.drawLine(QPointF(x, y - 4), QPointF(x + 18, y - 4));
        painter.setPen(QColor(40, 40, 40));
        painter.drawText(QPointF(x + 24, y), text);
        x += 24 + fm.horizontalAdvance(text) + 18;
    };
    entry(runColour(false), tr("A: %1").arg(m_nameA), false);
    entry(runColour(true), tr("B: %1, aligned to A's steps").arg(m_nameB), false);
    if (m_a->hasCachingAllocator() || m_b->hasCachingAllocator()) {
        entry(QColor(90, 90, 90), tr("reserved"), true);
    }
    painter.setPen(QColor(70, 70, 70));
    painter.drawText(QRectF(plot.left(), plot.bottom() + 4, plot.width(), k_bottom - 4),
                     Qt::AlignHCenter | Qt::AlignTop,
                     tr("A's allocation and free events; click to compare the runs there"));
}

void OverlayChart::mousePressEvent(QMouseEvent* event) {
    const QRectF plot = plotRect();
    if (!m_layoutA || event->button() != Qt::LeftButton || !plot.contains(event->position())) {
        QWidget::mousePressEvent(event);
        return;
    }
    const double x =
        (event->position().x() - plot.left()) / plot.width() * double(m_layoutA->xCount());
    setPickedX(std::clamp(x, 0.0, double(std::max<int64_t>(0, m_layoutA->xCount() - 1))));
    emit picked(m_picked);
}

}  // namespace memscope
