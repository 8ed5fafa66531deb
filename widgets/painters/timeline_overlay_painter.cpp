#include "painters/timeline_overlay_painter.h"

#include "common/byte_format.h"
#include "common/timeline_labels.h"
#include "painters/timeline_colors.h"

#include "trace/trace.h"

#include <QFontMetricsF>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <vector>

namespace memscope {
void TimelineOverlayPainter::paintCapacityAndOom(QPainter& painter) const {
    const TimelineMapping& m = m_ctx.m;
    const QFontMetricsF fm(painter.font());
    const QColor red = TimelineColors::capacity();
    const int64_t capacity = m_ctx.trace ? m_ctx.trace->meta.capacity_bytes : 0;
    painter.save();
    if (capacity > 0) {
        const double y = std::round(m.bytesToPixel(double(capacity))) + 0.5;
        painter.setPen(QPen(red, 1.5, Qt::DashLine));
        painter.drawLine(QPointF(m.left, y), QPointF(m.left + m.width, y));
        // At the left, where memory is usually lowest (the peak label goes near the peak).
        const QString label = tr("Capacity %1").arg(bytesText(capacity));
        const QRectF box(m.left + 6, y - 3 - fm.height(), fm.horizontalAdvance(label) + 6,
                         fm.height());
        painter.fillRect(box, QColor(255, 255, 255, 200));
        painter.setPen(red);
        painter.drawText(box, Qt::AlignCenter, label);
    }
    painter.setRenderHint(QPainter::Antialiasing, true);
    static const std::vector<TimelineOomMark> none;
    for (const TimelineOomMark& oom : m_ctx.ooms ? *m_ctx.ooms : none) {
        if (oom.x < std::floor(m.x0) || oom.x > std::ceil(m.x1)) {
            continue;
        }
        const double px = std::min(m.xToPixel(double(oom.x)), m.left + m.width - 6);
        const double py = std::max(m.bytesToPixel(double(oom.in_use)), m.top + 6);
        painter.setPen(QPen(red, 3, Qt::SolidLine, Qt::RoundCap));
        painter.drawLine(QPointF(px - 6, py - 6), QPointF(px + 6, py + 6));
        painter.drawLine(QPointF(px - 6, py + 6), QPointF(px + 6, py - 6));
        const QString label = tr("Out of memory: tried %1 bytes (%2)")
                                  .arg(exactBytes(oom.requested), bytesText(oom.requested));
        const double w = fm.horizontalAdvance(label) + 10;
        const double h = fm.height() + 4;
        double left = px - w - 10;
        if (left < m.left + 2) {
            left = px + 10;
        }
        const QRectF box(left, std::min(py + 8, m.top + m.height - h - 2), w, h);
        painter.setPen(QPen(red, 1));
        painter.setBrush(QColor(255, 255, 255, 235));
        painter.drawRoundedRect(box, 3, 3);
        painter.setPen(red.darker(115));
        painter.drawText(box, Qt::AlignCenter, label);
    }
    painter.restore();
}

void TimelineOverlayPainter::paintPeak(QPainter& painter, double highest_label) const {
    const TimelineMapping& m = m_ctx.m;
    const TimelineLayout& layout = m_ctx.layout;
    const int64_t wx0 = m_ctx.wx0;
    const int64_t wx1 = m_ctx.wx1;
    if (wx0 >= wx1) {
        return;
    }
    int64_t x = layout.peakX();
    bool global = x >= wx0 && x < wx1;
    if (!global) {
        // The global peak is outside the window: mark the highest point inside it instead.
        const int64_t best = layout.maxTotal(wx0, wx1);
        for (x = wx0; x < wx1 && layout.totalAt(x) != best; ++x) {
        }
    }
    const int64_t bytes = layout.totalAt(x);
    const double px = std::clamp(m.xToPixel(double(x) + 0.5), m.left, m.left + m.width);
    const double py = m.bytesToPixel(double(bytes));
    QString label =
        global ? tr("peak %1").arg(bytesText(bytes)) : tr("max in view %1").arg(bytesText(bytes));
    if (m_ctx.trace) {
        const auto event = size_t(layout.eventAt(x));
        const int32_t step = m_ctx.trace->events.step[event];
        const int phase = m_ctx.trace->events.phase[event];
        label += step >= 1 ? tr(" · step %1, %2").arg(step).arg(TimelineLabels::phaseName(phase))
                           : tr(" · %1").arg(TimelineLabels::phaseName(phase));
    }
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(Qt::white, 1.5));
    painter.setBrush(TimelineColors::peak());
    painter.drawEllipse(QPointF(px, py), 4.0, 4.0);
    QFont bold = painter.font();
    bold.setBold(true);
    painter.setFont(bold);
    const QFontMetricsF fm(bold);
    const double w = fm.horizontalAdvance(label) + 10;
    const double h = fm.height() + 4;
    double left = px + 8;
    if (left + w > m.left + m.width - 2) {
        left = px - 8 - w;
    }
    left = std::max(left, m.left + 2);
    const double top = std::max(py - h - 4, highest_label);
    const QRectF box(left, top, w, h);
    painter.setPen(QPen(TimelineColors::peak(), 1));
    painter.setBrush(QColor(255, 255, 255, 230));
    painter.drawRoundedRect(box, 3, 3);
    painter.setPen(TimelineColors::peak().darker(120));
    painter.drawText(box, Qt::AlignCenter, label);
    painter.restore();
}

void TimelineOverlayPainter::paintHoverLine(QPainter& painter, double px) const {
    const TimelineMapping& m = m_ctx.m;
    if (px < m.left || px > m.left + m.width) {
        return;
    }
    painter.setPen(QPen(QColor(20, 20, 20, 160), 0));
    const double x = std::round(px) + 0.5;
    painter.drawLine(QPointF(x, m.top), QPointF(x, m.top + m.height));
}

void TimelineOverlayPainter::paintRubberBand(QPainter& painter, double from, double to) const {
    const TimelineMapping& m = m_ctx.m;
    const double lo = std::clamp(std::min(from, to), m.left, m.left + m.width);
    const double hi = std::clamp(std::max(from, to), m.left, m.left + m.width);
    painter.setPen(QPen(QColor(30, 90, 200), 1));
    painter.setBrush(QColor(30, 90, 200, 45));
    painter.drawRect(QRectF(QPointF(lo, m.top), QPointF(hi, m.top + m.height)));
}

}  // namespace memscope
