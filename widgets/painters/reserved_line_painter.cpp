#include "painters/reserved_line_painter.h"

#include "explain/reserved_memory.h"
#include "layout/timeline_layout.h"
#include "layout/timeline_mapping.h"
#include "trace/trace.h"

#include <QFontMetricsF>
#include <QLineF>
#include <QPainter>
#include <QPolygonF>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace memscope {

void ReservedLinePainter::setTrace(const Trace* trace, const TimelineLayout* layout) {
    *this = ReservedLinePainter();
    m_hasTrace = trace != nullptr;
    if (trace) {
        m_fromStart = fromStartBytes(*trace);
        extendTo(*trace, layout);
    }
}

bool ReservedLinePainter::extend(const Trace* trace, const TimelineLayout* layout) {
    const bool continues = trace && m_hasTrace && trace->events.count() >= m_events &&
                           (!layout || layout->xCount() >= m_xCount) &&
                           fromStartBytes(*trace) == m_fromStart;
    if (!continues) {
        setTrace(trace, layout);
        return false;
    }
    const bool was_active = m_active;
    const bool was_column = m_column;
    extendTo(*trace, layout);
    if (m_active != was_active || m_column != was_column) {
        setTrace(trace, layout);  // the x before were read another way (or not at all)
        return false;
    }
    return true;
}

int64_t ReservedLinePainter::fromStartBytes(const Trace& trace) {
    // Trace::segments() lists the segments reserved before the trace first.
    int64_t bytes = 0;
    for (const Segment& s : trace.segments()) {
        if (s.reserve_event >= 0) {
            break;
        }
        bytes += s.size;
    }
    return bytes;
}

void ReservedLinePainter::extendTo(const Trace& trace, const TimelineLayout* layout) {
    // ReservedMemory::forEachReserved's reading, from the first event not seen yet: the reserved
    // column where the recorder filled it, else the segments' running total.
    const auto& ev = trace.events;
    const size_t count = ev.count();
    for (size_t i = m_events; i < count && !m_column; ++i) {
        m_column = ev.reserved[i] != 0 && static_cast<EventKind>(ev.kind[i]) != EventKind::Oom;
    }
    if (m_events == 0) {
        m_running = m_column ? 0 : m_fromStart;
    }
    m_cpu = trace.meta.device.empty() || trace.meta.device.rfind("cpu", 0) == 0;
    m_active = m_column || !trace.segments().empty();
    if (!m_active || !layout) {
        m_events = count;
        m_xCount = layout ? layout->xCount() : 0;
        return;
    }
    const int64_t n = layout->xCount();
    m_values.resize(size_t(n), 0);
    int64_t x = m_xCount;
    for (size_t i = m_events; i < count; ++i) {
        const auto kind = static_cast<EventKind>(ev.kind[i]);
        if (m_column) {
            if (kind != EventKind::Oom) {
                m_running = ev.reserved[i];
            }
        } else if (kind == EventKind::SegmentAlloc) {
            m_running += ev.size[i];
        } else if (kind == EventKind::SegmentFree) {
            m_running -= std::abs(ev.size[i]);
        }
        if (x < n && layout->eventAt(x) == int64_t(i)) {
            m_values[size_t(x++)] = m_running;
        }
    }
    const size_t blocks = size_t((n + kBlock - 1) / kBlock);
    m_blockMax.resize(blocks, 0);
    m_blockMin.resize(blocks, std::numeric_limits<int64_t>::max());
    for (int64_t i = m_xCount / kBlock * kBlock; i < n; ++i) {
        auto& top = m_blockMax[size_t(i / kBlock)];
        top = std::max(top, m_values[size_t(i)]);
        auto& bottom = m_blockMin[size_t(i / kBlock)];
        bottom = std::min(bottom, m_values[size_t(i)]);
    }
    m_events = count;
    m_xCount = n;
}

int64_t ReservedLinePainter::at(int64_t x) const {
    return x >= 0 && x < int64_t(m_values.size()) ? m_values[size_t(x)] : 0;
}

int64_t ReservedLinePainter::maxIn(int64_t x0, int64_t x1) const {
    x0 = std::max<int64_t>(x0, 0);
    x1 = std::min<int64_t>(x1, int64_t(m_values.size()));
    int64_t best = 0;
    while (x0 < x1) {
        if (x0 % kBlock == 0 && x0 + kBlock <= x1) {
            best = std::max(best, m_blockMax[size_t(x0 / kBlock)]);
            x0 += kBlock;
        } else {
            best = std::max(best, m_values[size_t(x0++)]);
        }
    }
    return best;
}

int64_t ReservedLinePainter::minIn(int64_t x0, int64_t x1) const {
    x0 = std::max<int64_t>(x0, 0);
    x1 = std::min<int64_t>(x1, int64_t(m_values.size()));
    if (x0 >= x1) {
        return 0;
    }
    int64_t best = std::numeric_limits<int64_t>::max();
    while (x0 < x1) {
        if (x0 % kBlock == 0 && x0 + kBlock <= x1) {
            best = std::min(best, m_blockMin[size_t(x0 / kBlock)]);
            x0 += kBlock;
        } else {
            best = std::min(best, m_values[size_t(x0++)]);
        }
    }
    return best;
}

void ReservedLinePainter::paint(QPainter& painter, const TimelineMapping& m) const {
    if (m_values.empty()) {
        return;
    }
    const int64_t n = int64_t(m_values.size());
    const int64_t wx0 = std::max<int64_t>(0, int64_t(std::floor(m.x0)));
    const int64_t wx1 = std::min(n, int64_t(std::ceil(m.x1)));
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    if (wx1 - wx0 <= int64_t(m.width)) {
        // Zoomed in: every x its own step.
        QPolygonF line;
        for (int64_t x = wx0; x < wx1; ++x) {
            const double y = m.bytesToPixel(double(m_values[size_t(x)]));
            line << QPointF(m.xToPixel(double(x)), y) << QPointF(m.xToPixel(double(x + 1)), y);
        }
        painter.setPen(QPen(color(), 2));
        painter.drawPolyline(line);
        painter.restore();
        return;
    }
    // Zoomed out: per pixel column the envelope, like the allocated total's: the range of the
    // reserved totals in the column as a light band, its highest as a short line (columns of
    // one value join into a line).
    QColor band = color();
    band.setAlpha(70);
    painter.setPen(Qt::NoPen);
    painter.setBrush(band);
    std::vector<QLineF> tops;
    const int columns = int(std::ceil(m.width));
    for (int c = 0; c < columns; ++c) {
        const int64_t lo = std::max(wx0, int64_t(std::floor(m.pixelToX(m.left + c))));
        const int64_t hi = std::min(wx1, int64_t(std::ceil(m.pixelToX(m.left + c + 1))));
        if (lo >= hi) {
            continue;
        }
        const double y_max = m.bytesToPixel(double(maxIn(lo, hi)));
        const double y_min = m.bytesToPixel(double(minIn(lo, hi)));
        if (y_min - y_max >= 1) {
            painter.drawRect(QRectF(m.left + c, y_max, 1, y_min - y_max));
        }
        tops.emplace_back(QPointF(m.left + c, y_max), QPointF(m.left + c + 1, y_max));
    }
    painter.setPen(QPen(color(), 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawLines(tops.data(), int(tops.size()));
    painter.restore();
}

QString ReservedLinePainter::legendText() const {
    if (!m_hasTrace) {
        return {};
    }
    if (m_active) {
        return tr("Reserved (caching allocator)");
    }
    return m_cpu ? tr("No caching allocator (CPU): nothing reserved beyond allocated")
                 : tr("No reserved memory recorded");
}

double ReservedLinePainter::paintLegend(QPainter& painter, double x, double baseline,
                                        double box) const {
    const QString text = legendText();
    if (text.isEmpty()) {
        return x;
    }
    const QFontMetricsF fm(painter.font());
    painter.save();
    if (m_active) {
        const double mid = baseline - box / 2 + 1;
        painter.setPen(QPen(color(), 2));
        painter.drawLine(QPointF(x, mid), QPointF(x + box, mid));
        x += box + 5;
        painter.setPen(QColor(40, 40, 40));
    } else {
        painter.setPen(QColor(110, 110, 110));
    }
    painter.drawText(QPointF(x, baseline), text);
    painter.restore();
    return x + fm.horizontalAdvance(text) + 16;
}

}  // namespace memscope
