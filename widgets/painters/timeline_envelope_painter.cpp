#include "painters/timeline_envelope_painter.h"

#include "painters/timeline_colors.h"
#include "painters/translucent_rects.h"

#include <QPainter>
#include <QPolygonF>
#include <QVector>

#include <algorithm>
#include <cmath>

namespace memscope {

std::vector<TimelineColumnEnvelope> TimelineEnvelopePainter::columns(const TimelineLayout& layout,
                                                                     const TimelineMapping& m) {
    std::vector<TimelineColumnEnvelope> out;
    const int64_t wx0 = std::max<int64_t>(0, int64_t(std::floor(m.x0)));
    const int64_t wx1 = std::min(layout.xCount(), int64_t(std::ceil(m.x1)));
    if (wx1 - wx0 <= int64_t(m.width)) {
        return out;  // an x is a pixel or wider: every layer draws each x as it is
    }
    const int columns = int(std::ceil(m.width));
    out.reserve(size_t(columns));
    for (int c = 0; c < columns; ++c) {
        const auto [lo, hi] = TimelinePaintContext::columnRange(m, c, wx0, wx1);
        if (lo < hi) {
            out.push_back({c, layout.minTotal(lo, hi), layout.maxTotal(lo, hi)});
        }
    }
    return out;
}

void TimelineEnvelopePainter::paintBase(QPainter& painter) const {
    const TimelineMapping& m = m_ctx.m;
    const std::vector<TimelineColumnEnvelope>& envelope = m_ctx.envelope;
    // What is live throughout a column, [0, lowest total), is filled in the band's colour
    // first: the drawn allocations and the band cover it, and wherever their pixel-snapped
    // shapes leave a gap this shows instead of the background.
    if (envelope.empty()) {
        return;
    }
    // Whole-pixel rectangles (the columns and their rounded edges are whole pixels): the raster
    // engine fills QRects span by span, where each QRectF went through its rasterizer (issue
    // 52: 40% of a zoomed-out frame at 1920 columns; the same pixels).
    const int bottom = int(std::round(m.bytesToPixel(0)));
    const int left = int(std::round(m.left));
    QVector<QRect> rects;
    rects.reserve(qsizetype(envelope.size()));
    for (const TimelineColumnEnvelope& e : envelope) {
        const int top = int(std::round(m.bytesToPixel(double(e.lo))));
        if (top >= bottom) {
            continue;
        }
        const int x = left + e.column;
        if (!rects.isEmpty() && rects.last().top() == top && rects.last().right() + 1 == x) {
            rects.last().setRight(x);
        } else {
            rects.push_back(QRect(QPoint(x, top), QPoint(x, bottom - 1)));
        }
    }
    painter.setPen(Qt::NoPen);
    painter.setBrush(TimelineColors::band());
    painter.drawRects(rects);
    painter.setBrush(Qt::NoBrush);
}

void TimelineEnvelopePainter::paintRange(QPainter& painter) const {
    const TimelineMapping& m = m_ctx.m;
    const std::vector<TimelineColumnEnvelope>& envelope = m_ctx.envelope;
    // Between a column's lowest and highest total memory rose and fell within the column:
    // washed lighter over whatever is drawn there, so the solid part reads as what stayed.
    const int left = int(std::round(m.left));
    QVector<QRect> rects;
    rects.reserve(qsizetype(envelope.size()));
    for (const TimelineColumnEnvelope& e : envelope) {
        const int top = int(std::round(m.bytesToPixel(double(e.hi))));
        const int bottom = int(std::round(m.bytesToPixel(double(e.lo))));
        if (top < bottom) {
            const int x = left + e.column;
            rects.push_back(QRect(QPoint(x, top), QPoint(x, bottom - 1)));
        }
    }
    TranslucentRects::fill(painter, rects, TimelineColors::rangeWash());
    painter.setPen(Qt::NoPen);
    painter.setBrush(Qt::NoBrush);
}

void TimelineEnvelopePainter::paintTotalLine(QPainter& painter) const {
    const TimelineMapping& m = m_ctx.m;
    const std::vector<TimelineColumnEnvelope>& envelope = m_ctx.envelope;
    // The total on top of everything: the outline users read the peak from.
    QPolygonF line;
    if (envelope.empty()) {
        for (int64_t x = m_ctx.wx0; x < m_ctx.wx1; ++x) {
            const double y = m.bytesToPixel(double(m_ctx.layout.totalAt(x)));
            line << QPointF(m.xToPixel(double(x)), y) << QPointF(m.xToPixel(double(x + 1)), y);
        }
    } else {
        // Per pixel column its highest total, on the column's first filled row, through pixel
        // centres; a step between two columns is drawn in the taller one, so that no column
        // shows the line above its own highest total.
        auto yOf = [&](const TimelineColumnEnvelope& e) {
            return std::round(m.bytesToPixel(double(e.hi))) + 0.5;
        };
        double previous_y = 0;
        int previous_column = -2;
        for (const TimelineColumnEnvelope& e : envelope) {
            const double x = m.left + e.column + 0.5;
            const double y = yOf(e);
            if (previous_column == e.column - 1) {
                if (y < previous_y) {  // this column is taller
                    line << QPointF(x, previous_y);
                } else if (y > previous_y) {
                    line << QPointF(x - 1, y);
                }
                line << QPointF(x, y);
            } else {
                if (!line.isEmpty()) {
                    painter.setPen(QPen(TimelineColors::total(), 0));
                    painter.drawPolyline(line);
                    line.clear();
                }
                line << QPointF(x, y);
            }
            previous_y = y;
            previous_column = e.column;
        }
    }
    // Only horizontal and vertical segments: antialiasing would add nothing but cost (it
    // made this line most of a full paint).
    painter.setPen(QPen(TimelineColors::total(), 0));
    painter.drawPolyline(line);
}

void TimelineEnvelopePainter::paintSummarizedBand(QPainter& painter) const {
    const TimelineMapping& m = m_ctx.m;
    const TimelineLayout& layout = m_ctx.layout;
    const int64_t wx0 = m_ctx.wx0;
    const int64_t wx1 = m_ctx.wx1;
    // The summarized band, [drawnTop, total), per x when zoomed in far enough for an x to be a
    // pixel or more, else per pixel column as its envelope (lowest drawn top to highest total):
    // the drawn allocations painted next cover whatever of it lies below them.
    if (wx0 >= wx1 || layout.summarizedCount() == 0) {
        return;
    }
    // Filled as rectangles, neighbours with the same extent merged: a band polygon with
    // thousands of jagged vertices costs the raster engine several times more.
    const QColor color = TimelineColors::band();
    QRectF run;
    auto add = [&](double px0, double px1, double y_hi, double y_lo) {
        if (y_lo - y_hi <= 0) {
            return;
        }
        if (m_ctx.stats) {
            m_ctx.stats->summarizedBand = true;
        }
        if (!run.isNull() && run.right() >= px0 - 0.01 && run.top() == y_hi &&
            run.bottom() == y_lo) {
            run.setRight(px1);
            return;
        }
        if (!run.isNull()) {
            painter.fillRect(run, color);
        }
        run = QRectF(QPointF(px0, y_hi), QPointF(px1, y_lo));
    };
    if (wx1 - wx0 <= int64_t(m.width)) {
        for (int64_t x = wx0; x < wx1; ++x) {
            add(m.xToPixel(double(x)), m.xToPixel(double(x + 1)),
                m.bytesToPixel(double(layout.totalAt(x))),
                m.bytesToPixel(double(layout.drawnTopAt(x))));
        }
    } else {
        // Per pixel column the envelope: highest total down to the lowest drawn top, from the
        // layout's block trees (a column of a thousand x costs a few dozen reads).
        const int columns = int(std::ceil(m.width));
        for (int c = 0; c < columns; ++c) {
            const auto [lo, hi] = TimelinePaintContext::columnRange(m, c, wx0, wx1);
            if (lo >= hi) {
                continue;
            }
            const int64_t top = layout.maxTotal(lo, hi);
            const int64_t bottom = layout.minDrawnTop(lo, hi);
            if (top > bottom) {
                add(m.left + c, m.left + c + 1, std::round(m.bytesToPixel(double(top))),
                    std::round(m.bytesToPixel(double(bottom))));
            }
        }
    }
    if (!run.isNull()) {
        painter.fillRect(run, color);
    }
}

}  // namespace memscope
