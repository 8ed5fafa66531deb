#include "painters/timeline_step_painter.h"

#include "common/timeline_labels.h"
#include "painters/timeline_colors.h"

#include "trace/trace.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <vector>

namespace memscope {
namespace {

// Lines and bands closer than this many pixels are thinned out.
constexpr double k_min_step_line_gap = 4;
// End-of-step floor ticks: drawn when steps are at least this many pixels apart, this wide.
constexpr double k_min_floor_gap = 16;
constexpr double k_floor_tick = 8;

}  // namespace

void TimelineStepPainter::paintPhases(QPainter& painter, const QRectF& strip) const {
    if (!m_ctx.trace) {
        return;
    }
    const TimelineMapping& m = m_ctx.m;
    const Trace& trace = *m_ctx.trace;
    // Bands inside the plot (the clip keeps them there); labels go in the strip above. When
    // the phases in view average under a few pixels each, only those at least a few pixels
    // wide keep their band: hundreds of steps would otherwise stripe the plot.
    const QRectF plot(m.left, m.top, m.width, m.height);
    int64_t visible = 0;
    for (size_t i = 0; i < trace.phases.size(); ++i) {
        const double px0 = m_ctx.phaseBeginPixel(i);
        const double px1 = m_ctx.phaseEndPixel(i);
        visible += px1 >= plot.left() && px0 <= plot.right() && px1 > px0;
    }
    const double narrowest = visible > 0 && plot.width() / double(visible) < k_min_step_line_gap
                                 ? 2 * k_min_step_line_gap
                                 : 0.5;
    for (size_t i = 0; i < trace.phases.size(); ++i) {
        const PhaseInterval& interval = trace.phases[i];
        const double px0 = m_ctx.phaseBeginPixel(i);
        const double px1 = m_ctx.phaseEndPixel(i);
        if (px1 < plot.left() || px0 > plot.right() || px1 - px0 < narrowest) {
            continue;
        }
        const int phase = std::clamp(int(interval.phase), 0, kPhaseCount - 1);
        painter.fillRect(QRectF(QPointF(px0, plot.top()), QPointF(px1, plot.bottom())),
                         TimelineColors::phaseBackground(phase));
    }
    // The strip lies outside the plot's clip: label it with its own clip.
    painter.save();
    painter.setClipRect(strip.adjusted(-2, 0, 2, 0));
    const QFontMetricsF fm(painter.font());
    const double row1 = strip.top() + fm.ascent() + 1;
    const double row2 = strip.bottom() - fm.descent() - 2;
    // Step labels at each step's first phase. A label whose step started left of the window
    // sticks to the left edge until the next one pushes it out. Only labels that can be drawn
    // are formatted and measured: a run of thousands of steps shows a few dozen, and the paint
    // must not cost more as the run grows.
    struct StepLabel {
        double x;
        int32_t step;
        bool sticky;  // its step began left of the window
    };
    std::vector<StepLabel> labels;
    int32_t previous_step = -1;
    for (size_t i = 0; i < trace.phases.size(); ++i) {
        const PhaseInterval& interval = trace.phases[i];
        if (interval.step != previous_step && interval.step >= 1) {
            const double px = m_ctx.phaseBeginPixel(i);
            labels.push_back({std::max(px, strip.left()) + 3, interval.step, px < strip.left()});
        }
        previous_step = interval.step;
    }
    // Left to right, skipping labels that would overlap the previous one or run off the end
    // (a hundred steps show every few); the sticky first label yields to the next one.
    painter.setPen(QColor(60, 60, 60));
    double free_from = strip.left();
    // A label's width by its length: digits are equally wide in the fonts used, and shaping
    // each of hundreds of labels a frame cost more than drawing the chart (issue 52).
    std::vector<double> width_of_length;
    auto label_width = [&fm, &width_of_length](const QString& text) {
        const auto n = size_t(text.size());
        if (n >= width_of_length.size()) {
            width_of_length.resize(n + 1, -1.0);
        }
        if (width_of_length[n] < 0) {
            width_of_length[n] = fm.horizontalAdvance(text);
        }
        return width_of_length[n];
    };
    for (size_t i = 0; i < labels.size(); ++i) {
        if (labels[i].x < free_from) {
            continue;
        }
        const QString text = tr("step %1").arg(labels[i].step);
        const double end = labels[i].x + label_width(text);
        const bool yields = labels[i].sticky && i + 1 < labels.size() && labels[i + 1].x < end + 6;
        if (!yields && end <= strip.right()) {
            painter.drawText(QPointF(labels[i].x, row1), text);
            free_from = end + 10;
        }
    }
    // Phase names where their band is wide enough; a name's width is measured once per paint.
    double name_width[kPhaseCount];
    std::fill(std::begin(name_width), std::end(name_width), -1.0);
    for (size_t i = 0; i < trace.phases.size(); ++i) {
        const PhaseInterval& interval = trace.phases[i];
        if (interval.phase == Phase::Init) {
            continue;
        }
        const double left = std::max(m_ctx.phaseBeginPixel(i), strip.left());
        const double right = std::min(m_ctx.phaseEndPixel(i), strip.right());
        if (right - left <= 6) {
            continue;
        }
        const int phase = std::clamp(int(interval.phase), 0, kPhaseCount - 1);
        const QString name = TimelineLabels::phaseName(phase);
        if (name_width[phase] < 0) {
            name_width[phase] = fm.horizontalAdvance(name);
        }
        const double width = name_width[phase];
        if (right - left > width + 6) {
            painter.setPen(TimelineColors::phaseText(phase));
            painter.drawText(QPointF((left + right - width) / 2, row2), name);
        }
    }
    painter.restore();
}

void TimelineStepPainter::paintStepLines(QPainter& painter) const {
    // Step boundaries over the data, light enough not to hide it. When steps are closer than a
    // few pixels only every k-th is drawn (k = 1, 2, 5, 10, 20, ...: steps that are multiples
    // of k), or hundreds of steps would cover every pixel column.
    if (!m_ctx.trace) {
        return;
    }
    const TimelineMapping& m = m_ctx.m;
    struct Mark {
        int32_t step;
        double px;
    };
    std::vector<Mark> marks;
    int32_t previous_step = -1;
    const auto& phases = m_ctx.trace->phases;
    for (size_t i = 0; i < phases.size(); ++i) {
        const PhaseInterval& interval = phases[i];
        if (interval.step != previous_step && interval.step >= 1) {
            const double px = std::round(m_ctx.phaseBeginPixel(i));
            if (px >= m.left - 1 && px <= m.left + m.width + 1) {
                marks.push_back({interval.step, px});
            }
        }
        previous_step = interval.step;
    }
    const int32_t every = stepLineStride(marks.size() > 1 ? (marks.back().px - marks.front().px) /
                                                                double(marks.size() - 1)
                                                          : m.width);
    painter.setPen(QPen(QColor(60, 60, 60, 110), 0, Qt::DashLine));
    double last = -1e9;
    for (const Mark& mark : marks) {
        if (mark.step % every == 0 && mark.px - last >= k_min_step_line_gap) {
            painter.drawLine(QPointF(mark.px + 0.5, m.top),
                             QPointF(mark.px + 0.5, m.top + m.height));
            last = mark.px;
        }
    }
}

void TimelineStepPainter::paintStepFloors(QPainter& painter) const {
    if (!m_ctx.trace || m_ctx.layout.xCount() == 0) {
        return;
    }
    const TimelineMapping& m = m_ctx.m;
    // A step ends where the next one begins: its floor is the total after the last event
    // before that moment.
    struct Floor {
        double px;
        double py;
    };
    std::vector<Floor> floors;
    int32_t previous_step = -1;
    const auto& phases = m_ctx.trace->phases;
    for (size_t i = 0; i < phases.size(); ++i) {
        const PhaseInterval& interval = phases[i];
        if (interval.step != previous_step && interval.step >= 2) {
            const int64_t x = i < m_ctx.layout.phaseCount()
                                  ? m_ctx.layout.phaseBeginX(i)
                                  : m_ctx.layout.xAtTime(interval.begin_ns);
            if (x >= 1) {
                floors.push_back({m_ctx.phaseBeginPixel(i),
                                  m.bytesToPixel(double(m_ctx.layout.totalAt(x - 1)))});
            }
        }
        previous_step = interval.step;
    }
    if (floors.size() < 2 ||
        (floors.back().px - floors.front().px) / double(floors.size() - 1) < k_min_floor_gap) {
        return;
    }
    const QColor colour = TimelineColors::stepFloor();
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    // Each over a white halo, to read over any colour of the data.
    for (const bool halo : {true, false}) {
        painter.setPen(halo ? QPen(QColor(255, 255, 255, 200), 3) : QPen(colour, 1, Qt::DashLine));
        for (size_t i = 1; i < floors.size(); ++i) {
            painter.drawLine(QPointF(floors[i - 1].px, floors[i - 1].py),
                             QPointF(floors[i].px, floors[i].py));
        }
        painter.setPen(halo ? QPen(QColor(255, 255, 255, 220), 5) : QPen(colour, 3));
        for (const Floor& f : floors) {
            painter.drawLine(QPointF(f.px - k_floor_tick, f.py), QPointF(f.px, f.py));
        }
    }
    painter.restore();
}

int32_t TimelineStepPainter::stepLineStride(double pixels_per_step) {
    int32_t every = 1;
    for (int32_t decade = 1; decade < (1 << 29); decade *= 10) {
        for (const int32_t multiple : {1, 2, 5}) {
            every = decade * multiple;
            if (pixels_per_step * every >= k_min_step_line_gap) {
                return every;
            }
        }
    }
    return every;
}

}  // namespace memscope
