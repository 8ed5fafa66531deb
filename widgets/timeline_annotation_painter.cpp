#include "timeline_annotation_painter.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <array>

namespace memscope {

namespace {

QColor kindColor(TraceAnnotation::Kind kind, size_t index) {
    switch (kind) {
        case TraceAnnotation::Kind::Step:
            return index % 2 ? QColor(90, 110, 140) : QColor(120, 140, 170);
        case TraceAnnotation::Kind::Phase:
            return QColor(150, 120, 60);
        case TraceAnnotation::Kind::Recompute:
            return QColor(170, 70, 120);
        case TraceAnnotation::Kind::User:
            return QColor(40, 130, 110);
    }
    return Qt::gray;
}

}  // namespace

QString TimelineAnnotationPainter::kindName(TraceAnnotation::Kind kind) {
    switch (kind) {
        case TraceAnnotation::Kind::Step:
            return tr("Steps");
        case TraceAnnotation::Kind::Phase:
            return tr("Phases");
        case TraceAnnotation::Kind::Recompute:
            return tr("Recomputation");
        case TraceAnnotation::Kind::User:
            return tr("Annotations");
    }
    return QString();
}

void TimelineAnnotationPainter::paintAnnotations(
    QPainter& painter, const std::vector<TraceAnnotation>& regions) const {
    const TimelineMapping& m = m_ctx.m;
    const QRectF plot(m.left, m.top, m.width, m.height);
    // Lanes from the bottom up: per kind present (in kind order), as many as its regions
    // overlap (nested record_function scopes): each region goes into the kind's first lane
    // free at its begin, the regions in begin order (fromTrace sorts them so).
    std::vector<int> lane_of(regions.size(), 0);
    int lanes = 0;
    for (int kind = 0; kind < 4; ++kind) {
        std::vector<int64_t> lane_end;  // per lane of this kind: where its last region ends
        for (size_t i = 0; i < regions.size(); ++i) {
            if (int(regions[i].kind) != kind) {
                continue;
            }
            size_t l = 0;
            while (l < lane_end.size() && lane_end[l] > regions[i].begin_ns) {
                ++l;
            }
            if (l == lane_end.size()) {
                lane_end.push_back(0);
            }
            lane_end[l] = regions[i].end_ns;
            lane_of[i] = lanes + int(l);
        }
        lanes += int(lane_end.size());
    }
    if (lanes == 0) {
        return;
    }
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    QFont font = painter.font();
    font.setPointSizeF(std::max(6.0, font.pointSizeF() * 0.85));
    painter.setFont(font);
    const QFontMetricsF fm(font);
    std::array<size_t, 4> count{};
    for (size_t i = 0; i < regions.size(); ++i) {
        const TraceAnnotation& r = regions[i];
        const size_t index = count[size_t(r.kind)]++;
        double px0 = m_ctx.timeToPixel(r.begin_ns);
        double px1 = m_ctx.timeToPixel(r.end_ns);
        if (px1 < plot.left() || px0 > plot.right()) {
            continue;
        }
        px0 = std::max(px0, plot.left());
        px1 = std::min(px1, plot.right());
        if (px1 - px0 < 1) {
            px1 = px0 + 1;  // a region narrower than a pixel still shows as a tick
        }
        if (lane_of[i] >= kMaxLanes) {
            continue;  // deeper nesting than a few lanes would cover the data
        }
        const double bottom = plot.bottom() - kLane * lane_of[i];
        const QRectF band(QPointF(px0, bottom - kLane + 1), QPointF(px1, bottom));
        const QColor colour = kindColor(r.kind, index);
        QColor fill = colour;
        fill.setAlpha(150);
        painter.fillRect(band, fill);
        painter.setPen(QPen(colour.darker(140), 0));
        painter.drawLine(band.topLeft(), band.bottomLeft());
        const QString name = QString::fromStdString(r.name);
        if (band.width() > fm.averageCharWidth() * 3) {
            painter.setPen(Qt::white);
            painter.drawText(band.adjusted(2, 0, -1, 0), Qt::AlignVCenter | Qt::AlignLeft,
                             fm.elidedText(name, Qt::ElideRight, band.width() - 3));
        }
    }
    painter.restore();
}

void TimelineAnnotationPainter::paintFilter(QPainter& painter, double x0, double x1) const {
    const TimelineMapping& m = m_ctx.m;
    const QRectF plot(m.left, m.top, m.width, m.height);
    const double px0 = std::clamp(m.xToPixel(x0), plot.left(), plot.right());
    const double px1 = std::clamp(m.xToPixel(x1), plot.left(), plot.right());
    const QColor wash(235, 235, 235, 190);
    painter.fillRect(QRectF(QPointF(plot.left(), plot.top()), QPointF(px0, plot.bottom())), wash);
    painter.fillRect(QRectF(QPointF(px1, plot.top()), QPointF(plot.right(), plot.bottom())), wash);
    painter.setPen(QPen(QColor(200, 110, 0), 1.5, Qt::DashLine));
    for (const double px : {px0, px1}) {
        if (px > plot.left() && px < plot.right()) {
            painter.drawLine(QPointF(px, plot.top()), QPointF(px, plot.bottom()));
        }
    }
}

void TimelineAnnotationPainter::paintFilterBand(QPainter& painter, double from, double to) const {
    const TimelineMapping& m = m_ctx.m;
    const double lo = std::clamp(std::min(from, to), m.left, m.left + m.width);
    const double hi = std::clamp(std::max(from, to), m.left, m.left + m.width);
    painter.setPen(QPen(QColor(200, 110, 0), 1));
    painter.setBrush(QColor(230, 140, 20, 50));
    painter.drawRect(QRectF(QPointF(lo, m.top), QPointF(hi, m.top + m.height)));
}

}  // namespace memscope
