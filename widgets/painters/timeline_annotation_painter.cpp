#include "painters/timeline_annotation_painter.h"

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
    auto drawBand = [&](double px0, double px1, int lane, const QColor& colour,
                        const QString& label, bool crowd) {
        const double bottom = plot.bottom() - kLane * lane;
        const QRectF band(QPointF(px0, bottom - kLane + 1), QPointF(px1, bottom));
        QColor fill = colour;
        fill.setAlpha(crowd ? 90 : 150);
        painter.fillRect(band, fill);
        painter.setPen(QPen(colour.darker(140), 0));
        painter.drawLine(band.topLeft(), band.bottomLeft());
        if (crowd) {
            painter.drawLine(band.topRight(), band.bottomRight());
        }
        if (band.width() > fm.averageCharWidth() * 3) {
            painter.setPen(crowd ? colour.darker(200) : QColor(Qt::white));
            painter.drawText(band.adjusted(2, 0, -1, 0), Qt::AlignVCenter | Qt::AlignLeft,
                             fm.elidedText(label, Qt::ElideRight, band.width() - 3));
        }
    };
    // Regions narrower than kMinBand pixels that follow each other in a lane (hundreds of steps
    // in a wide window) are drawn as one lighter band, "first – last", instead of a stripe per
    // region that would hide the data and read as noise.
    struct Crowd {
        double px0 = 0, px1 = -1;
        int count = 0;
        size_t first = 0, last = 0;
    };
    std::vector<Crowd> crowds(size_t(std::min(lanes, kMaxLanes)));
    auto flush = [&](int lane) {
        Crowd& c = crowds[size_t(lane)];
        if (c.count == 0) {
            return;
        }
        const TraceAnnotation& first = regions[c.first];
        const QColor colour = kindColor(first.kind, 0);
        if (c.count == 1) {
            drawBand(c.px0, std::max(c.px1, c.px0 + 1), lane, colour,
                     QString::fromStdString(first.name), false);
        } else {
            drawBand(c.px0, c.px1, lane, colour,
                     tr("%1 – %2 (%3)")
                         .arg(QString::fromStdString(first.name),
                              QString::fromStdString(regions[c.last].name))
                         .arg(c.count),
                     true);
        }
        c = Crowd();
    };
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
        const int lane = lane_of[i];
        if (lane >= kMaxLanes) {
            continue;  // deeper nesting than a few lanes would cover the data
        }
        Crowd& c = crowds[size_t(lane)];
        if (px1 - px0 < kMinBand) {
            if (c.count > 0 && px0 > c.px1 + kMinBand) {
                flush(lane);  // a gap: the crowd ended
            }
            if (c.count == 0) {
                c.px0 = px0;
                c.first = i;
            }
            c.px1 = std::max(c.px1, px1);
            c.last = i;
            ++c.count;
            continue;
        }
        flush(lane);
        drawBand(px0, px1, lane, kindColor(r.kind, index), QString::fromStdString(r.name), false);
    }
    for (int lane = 0; lane < int(crowds.size()); ++lane) {
        flush(lane);
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
