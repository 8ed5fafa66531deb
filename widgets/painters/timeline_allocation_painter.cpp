#include "painters/timeline_allocation_painter.h"

#include "painters/timeline_colors.h"

#include <QPainter>
#include <QPolygonF>

#include <algorithm>
#include <cmath>
#include <vector>

namespace memscope {
namespace {

// Lines and outlines closer than this many pixels are thinned out.
constexpr double k_min_drop_line_gap = 4;

// A sub-pixel allocation waiting to be merged with its neighbours: in pixel column `bucket`
// covering rows [lo, hi) when it is narrower than a pixel, or in pixel row `bucket` covering
// columns [lo, hi) when it is thinner than one.
struct SpanItem {
    int bucket;
    int key;    // merge key: the colour group
    int color;  // palette index of the first item
    float lo;
    float hi;
};

// Merges items of one bucket and colour group that touch or overlap into runs and hands each run to
// paint(bucket, color, lo, hi). A million sub-pixel allocations become a few thousand
// rectangles: at that size only the covered pixels and their colour are visible anyway.
template <typename Paint>
int64_t mergeSpans(const std::vector<SpanItem>& items, int buckets, Paint&& paint) {
    if (items.empty()) {
        return 0;
    }
    std::vector<int> start(size_t(buckets) + 1, 0);
    for (const SpanItem& item : items) {
        ++start[size_t(item.bucket) + 1];
    }
    for (int b = 0; b < buckets; ++b) {
        start[size_t(b) + 1] += start[size_t(b)];
    }
    std::vector<SpanItem> sorted(items.size());
    {
        std::vector<int> cursor(start.begin(), start.end() - 1);
        for (const SpanItem& item : items) {
            sorted[size_t(cursor[size_t(item.bucket)]++)] = item;
        }
    }
    int64_t runs = 0;
    for (int b = 0; b < buckets; ++b) {
        const auto from = sorted.begin() + start[size_t(b)];
        const auto to = sorted.begin() + start[size_t(b) + 1];
        if (from == to) {
            continue;
        }
        std::sort(from, to, [](const SpanItem& l, const SpanItem& r) { return l.lo < r.lo; });
        SpanItem run = *from;
        for (auto it = from + 1; it != to; ++it) {
            if (it->key == run.key && it->lo <= run.hi + 1.0f) {
                run.hi = std::max(run.hi, it->hi);
            } else {
                paint(b, run.color, run.lo, run.hi);
                ++runs;
                run = *it;
            }
        }
        paint(b, run.color, run.lo, run.hi);
        ++runs;
    }
    return runs;
}

}  // namespace

QPolygonF TimelineAllocationPainter::polygon(int64_t d, double min_height) const {
    const TimelineMapping& m = m_ctx.m;
    const TimelineLayout& layout = m_ctx.layout;
    const int64_t a = layout.drawnAllocation(d);
    const double lo_px = m.left - 2;
    const double hi_px = m.left + m.width + 2;
    const auto clampPx = [&](double px) { return std::clamp(px, lo_px, hi_px); };
    const int64_t begin = std::max(layout.beginX(a), int64_t(std::floor(m.x0)));
    const int64_t end = std::min(layout.endX(a), int64_t(std::ceil(m.x1)));
    const TimelinePoint* first = layout.pointsBegin(d);
    const TimelinePoint* last = layout.pointsEnd(d);
    const TimelinePoint* it = std::upper_bound(
        first, last, begin, [](int64_t value, const TimelinePoint& p) { return value < p.x; });
    if (it != first) {
        --it;
    }
    const double height = std::max(double(layout.sizeOf(a)) * m.height / m.ymax, min_height);
    // The bottom edge, left to right: a vertical drop wherever something below was freed.
    // Drops within a pixel of each other merge, so no edge has more than about two vertices
    // per pixel column.
    QPolygonF bottom;
    double y = m.bytesToPixel(double(it->y_bottom));
    bottom << QPointF(clampPx(m.xToPixel(double(begin))), y);
    double last_drop = -1e9;
    for (++it; it != last && it->x < end; ++it) {
        const double px = clampPx(m.xToPixel(double(it->x)));
        const double next = m.bytesToPixel(double(it->y_bottom));
        if (px - last_drop < 0.75) {
            bottom.last().setY(next);
        } else {
            bottom << QPointF(px, y) << QPointF(px, next);
            last_drop = px;
        }
        y = next;
    }
    bottom << QPointF(clampPx(m.xToPixel(double(end))), y);
    QPolygonF polygon = bottom;
    for (qsizetype i = bottom.size() - 1; i >= 0; --i) {
        polygon << QPointF(bottom.at(i).x(), bottom.at(i).y() - height);
    }
    return polygon;
}

void TimelineAllocationPainter::paint(QPainter& painter) const {
    const TimelineMapping& m = m_ctx.m;
    const TimelineLayout& layout = m_ctx.layout;
    const TimelineColors& colors = m_ctx.colors;
    const int64_t wx0 = m_ctx.wx0;
    const int64_t wx1 = m_ctx.wx1;
    TimelinePaintStats unused;
    TimelinePaintStats& stats = m_ctx.stats ? *m_ctx.stats : unused;
    if (wx0 >= wx1) {
        return;
    }
    const int columns = std::max(1, int(std::ceil(m.width)));
    const int first_row = int(std::floor(m.top)) - 2;
    const int rows = int(std::ceil(m.height)) + 4;
    std::vector<SpanItem> narrow;  // narrower than a pixel, per column
    std::vector<SpanItem> thin;    // thinner than a pixel (and wider), per row
    painter.setBrush(Qt::NoBrush);
    for (const int64_t d : layout.drawnIn(wx0, wx1)) {
        const int64_t a = layout.drawnAllocation(d);
        const int color = colors.paletteIndexOf(a);
        const int key = colors.groupOf(color);
        // Merged sub-pixel runs take their group's base colour (by allocation: the first's).
        const int merged = colors.mergedIndexOf(color);
        const int64_t begin = std::max(layout.beginX(a), wx0);
        const int64_t end = std::min(layout.endX(a), wx1);
        const double px0 = m.xToPixel(double(begin));
        const double px1 = m.xToPixel(double(end));
        ++stats.allocations;
        if (px1 - px0 < 1.0) {
            // Narrower than a pixel: its column shows the range it covered (its bottom only
            // moves down, so from the last bottom to the first top).
            const TimelinePoint* first = layout.pointsBegin(d);
            const TimelinePoint* last = layout.pointsEnd(d);
            const TimelinePoint* it =
                std::upper_bound(first, last, begin,
                                 [](int64_t value, const TimelinePoint& p) { return value < p.x; });
            if (it != first) {
                --it;
            }
            const int64_t top = it->y_bottom + layout.sizeOf(a);
            const TimelinePoint* end_it = std::lower_bound(
                it, last, end, [](const TimelinePoint& p, int64_t value) { return p.x < value; });
            const int64_t low = (end_it - 1)->y_bottom;
            const int column = std::clamp(int(px0 - m.left), 0, columns - 1);
            narrow.push_back({column, key, merged, float(m.bytesToPixel(double(top))),
                              float(m.bytesToPixel(double(low)))});
            continue;
        }
        const double height = double(layout.sizeOf(a)) * m.height / m.ymax;
        const QColor& fill = colors.paletteColor(color);
        const TimelinePoint* first = layout.pointsBegin(d);
        const TimelinePoint* last = layout.pointsEnd(d);
        const TimelinePoint* it = std::upper_bound(
            first, last, begin, [](int64_t value, const TimelinePoint& p) { return value < p.x; });
        // Big enough to read as a block: a darker edge separates it from its neighbours. Not
        // when its bottom edge drops more often than every few pixels: the outline would
        // trace every drop and hatch the plot (hover and selection still outline it).
        const auto drops =
            std::lower_bound(it, last, end,
                             [](const TimelinePoint& p, int64_t value) { return p.x < value; }) -
            it;
        const bool outlined =
            height >= 6 && px1 - px0 >= 6 && double(drops) * k_min_drop_line_gap <= px1 - px0;
        const double left = std::max(px0, m.left - 2);
        const double right = std::min(px1, m.left + m.width + 2);
        if (height < 1.0) {
            // Thinner than a pixel: each flat piece of it is a one-pixel row segment, merged
            // with its neighbours in that row below. The row is the one whose centre a
            // one-pixel-tall rectangle ending at the bottom edge covers.
            // Pieces in one row join before they are queued: most moves below a thin
            // allocation are smaller than a pixel.
            auto rowOf = [&](double bottom) {
                return std::clamp(int(std::floor(bottom - 0.5)) - first_row, 0, rows - 1);
            };
            double piece_left = left;
            int row = rowOf(m.bytesToPixel(double((it - 1)->y_bottom)));
            for (; it != last && it->x < end; ++it) {
                const int next_row = rowOf(m.bytesToPixel(double(it->y_bottom)));
                if (next_row != row) {
                    const double x = m.xToPixel(double(it->x));
                    thin.push_back({row, key, merged, float(piece_left), float(x)});
                    piece_left = x;
                    row = next_row;
                }
            }
            thin.push_back({row, key, merged, float(piece_left), float(right)});
            continue;
        }
        if (it == last || it->x >= end) {
            // Nothing below it moved inside the window: a rectangle, which the raster engine
            // fills several times faster than a polygon.
            const double bottom = m.bytesToPixel(double((it - 1)->y_bottom));
            const QRectF box(left, bottom - height, right - left, height);
            painter.fillRect(box, fill);
            if (outlined) {
                painter.setPen(QPen(fill.darker(135), 0));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(box);
            }
        } else {
            painter.setPen(outlined ? QPen(fill.darker(135), 0) : QPen(Qt::NoPen));
            painter.setBrush(fill);
            painter.drawPolygon(polygon(d, 1.0));
        }
        ++stats.polygons;
    }

    painter.setPen(Qt::NoPen);
    stats.mergedRuns += mergeSpans(narrow, columns, [&](int column, int color, float lo, float hi) {
        painter.fillRect(QRectF(m.left + column, lo, 1.0, std::max(hi - lo, 1.0f)),
                         colors.paletteColor(color));
    });
    stats.mergedRuns += mergeSpans(thin, rows, [&](int row, int color, float lo, float hi) {
        painter.fillRect(QRectF(lo, first_row + row, std::max(hi - lo, 1.0f), 1.0),
                         colors.paletteColor(color));
    });
}

void TimelineAllocationPainter::paintHighlighted(QPainter& painter,
                                                 const std::vector<int64_t>& highlighted) const {
    if (highlighted.empty()) {
        return;
    }
    const TimelineMapping& m = m_ctx.m;
    const TimelineLayout& layout = m_ctx.layout;
    // Everything else dimmed, the highlighted ones drawn again over it with an outline.
    painter.fillRect(QRectF(m.left, m.top, m.width, m.height), QColor(255, 255, 255, 170));
    const int64_t wx0 = m_ctx.wx0;
    const int64_t wx1 = m_ctx.wx1;
    painter.save();
    for (const int64_t a : highlighted) {
        if (a < 0 || a >= layout.allocationCount()) {
            continue;
        }
        const int64_t d = layout.drawnIndexOf(a);
        if (d < 0 || layout.beginX(a) >= wx1 || layout.endX(a) <= wx0) {
            continue;
        }
        QPolygonF shape = polygon(d, 1.5);
        const QRectF box = shape.boundingRect();
        if (box.width() < 2) {
            shape = QPolygonF(QRectF(box.center().x() - 1, box.top(), 2, box.height()));
        }
        const QColor fill = m_ctx.colors.allocationColor(a);
        painter.setBrush(fill);
        painter.setPen(QPen(fill.darker(170), 1.2));
        painter.drawPolygon(shape);
    }
    painter.restore();
}

void TimelineAllocationPainter::paintOutline(QPainter& painter, int64_t allocation,
                                             bool pinned) const {
    const TimelineMapping& m = m_ctx.m;
    const TimelineLayout& layout = m_ctx.layout;
    if (allocation < 0 || allocation >= layout.allocationCount()) {
        return;
    }
    const int64_t d = layout.drawnIndexOf(allocation);
    if (d < 0 || layout.beginX(allocation) >= std::ceil(m.x1) ||
        layout.endX(allocation) <= std::floor(m.x0)) {
        return;
    }
    QPolygonF shape = polygon(d, 2.0);
    // Keep very narrow ones visible as at least a 3 pixel column.
    const QRectF box = shape.boundingRect();
    if (box.width() < 3) {
        const double cx = box.center().x();
        shape = QPolygonF(QRectF(cx - 1.5, box.top(), 3, box.height()));
    }
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setBrush(pinned ? QColor(255, 255, 255, 70) : QColor(255, 255, 255, 40));
    painter.setPen(QPen(QColor(10, 10, 10), pinned ? 2.4 : 1.4));
    painter.drawPolygon(shape);
    painter.restore();
}

}  // namespace memscope
