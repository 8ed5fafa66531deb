#include "painters/timeline_category_painter.h"

#include "painters/timeline_colors.h"

#include <QPainter>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace memscope {

void TimelineCategoryPainter::paint(QPainter& painter) const {
    const TimelineMapping& m = m_ctx.m;
    const TimelineLayout& layout = m_ctx.layout;
    // Memory stacked by category in enum order, parameters at the bottom. Per x when an x is a
    // pixel or wider, else per pixel column its envelope (each layer's highest top in the
    // column): the layers are filled top one first, each lower one over it.
    const int64_t wx0 = m_ctx.wx0;
    const int64_t wx1 = m_ctx.wx1;
    if (wx0 >= wx1) {
        return;
    }
    struct Column {
        double px0;
        double px1;
        TimelineLayout::CategoryBytes top;
    };
    std::vector<Column> columns;
    if (wx1 - wx0 <= int64_t(m.width)) {
        columns.reserve(size_t(wx1 - wx0));
        for (int64_t x = wx0; x < wx1; ++x) {
            columns.push_back({m.xToPixel(double(x)), m.xToPixel(double(x + 1)),
                               layout.categoryStackMax(x, x + 1)});
        }
    } else {
        const int count = int(std::ceil(m.width));
        columns.reserve(size_t(count));
        int64_t x = wx0;
        for (int c = 0; c < count && x < wx1; ++c) {
            // The x's whose left edge falls in this column.
            int64_t end = std::clamp(int64_t(std::ceil(m.pixelToX(m.left + c + 1))), x, wx1);
            while (end < wx1 && m.xToPixel(double(end)) < m.left + c + 1) {
                ++end;
            }
            if (end > x) {
                columns.push_back({m.left + c, m.left + c + 1, layout.categoryStackMax(x, end)});
                x = end;
            } else if (x > wx0) {
                // No event starts here (a wide x on the time axis): the last state holds.
                columns.push_back({m.left + c, m.left + c + 1, layout.categoryStackMax(x - 1, x)});
            }
        }
    }
    if (columns.empty()) {
        return;
    }
    // Each layer as rectangles from the layer below's top to its own, per column (or per x):
    // no overdraw, and solid rectangles fill faster than polygons of thousands of vertices.
    std::array<QColor, kCategoryCount> colors;
    for (int c = 0; c < kCategoryCount; ++c) {
        colors[size_t(c)] = TimelineColors::categoryColor(c);
    }
    std::array<bool, kCategoryCount> drawn{};
    for (const Column& column : columns) {
        double below = std::round(m.bytesToPixel(0));
        for (int c = 0; c < kCategoryCount; ++c) {
            if (!m_ctx.colors.categoryPresent(c)) {
                continue;
            }
            const double top = std::round(m.bytesToPixel(double(column.top[size_t(c)])));
            if (top < below) {
                painter.fillRect(QRectF(QPointF(column.px0, top), QPointF(column.px1, below)),
                                 colors[size_t(c)]);
                drawn[size_t(c)] = true;
            }
            below = std::min(below, top);
        }
    }
    if (m_ctx.stats) {
        m_ctx.stats->polygons = std::count(drawn.begin(), drawn.end(), true);
    }
}

}  // namespace memscope
