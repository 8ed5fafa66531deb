#include "timeline/rank_lanes_view.h"

#include "common/byte_format.h"
#include "common/timeline_labels.h"
#include "painters/timeline_category_painter.h"
#include "painters/timeline_colors.h"
#include "painters/timeline_frame_painter.h"
#include "painters/timeline_paint_context.h"
#include "painters/timeline_step_painter.h"
#include "run_document.h"
#include "when_finished.h"

#include "layout/timeline_layout.h"
#include "layout/timeline_mapping.h"
#include "trace/trace.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QShowEvent>
#include <QToolTip>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace memscope {

namespace {

// Margins of the lanes view, in pixels: the byte ticks take the detailed timeline's left margin.
constexpr double kLanesHeader = 50;  // title and legend
constexpr double kLanesStrip = 20;   // step labels
constexpr double kLanesBottom = 26;  // the axis' explanation
constexpr double kLanesGap = 8;      // between a lane's plot and the next lane's label

// A rank's lane from its run (any thread).
RankLanesView::Lane laneOfRun(const RankLanesView::Run& run) {
    RankLanesView::Lane lane;
    lane.rank = run.rank;
    lane.process = run.process;
    if (!run.trace) {
        return lane;
    }
    const Trace& trace = *run.trace;
    // No allocation drawn one by one: the lanes draw bytes per category, which need none.
    auto layout = std::make_shared<TimelineLayout>(trace, 0);
    auto colors = std::make_shared<TimelineColors>();
    colors->rebuild(&trace, layout.get(), TimelineColors::Scheme::Category);
    std::map<int32_t, double> starts;  // as StepAlignment::between finds them
    for (const auto& p : trace.phases) {
        if (p.step > 0 && !starts.count(p.step)) {
            starts[p.step] = double(layout->xAtTime(p.begin_ns));
        }
        const auto x0 = double(layout->xAtTime(p.begin_ns));
        const auto x1 = double(layout->xAtTime(p.end_ns));
        if (x1 > x0) {
            lane.phases.push_back({x0, x1, std::clamp(int(p.phase), 0, kPhaseCount - 1)});
        }
    }
    lane.steps.assign(starts.begin(), starts.end());
    lane.peakX = layout->peakX();
    lane.peakBytes = layout->peakBytes();
    if (lane.peakX >= 0) {
        const auto event = size_t(layout->eventAt(lane.peakX));
        lane.peakStep = trace.events.step[event];
        lane.peakPhase = trace.events.phase[event];
    }
    lane.missing = false;
    lane.layout = std::move(layout);
    lane.colors = std::move(colors);
    return lane;
}

std::vector<RankLanesView::Lane> lanesOfRuns(const QVector<RankLanesView::Run>& runs) {
    std::vector<RankLanesView::Lane> lanes;
    lanes.reserve(size_t(runs.size()));
    for (const RankLanesView::Run& run : runs) {
        lanes.push_back(laneOfRun(run));
    }
    return lanes;
}

}  // namespace

RankLanesView::RankLanesView(RunDocument* state, QWidget* parent)
    : QWidget(parent), m_state(state) {
    setObjectName(QStringLiteral("rank_lanes"));
    setMinimumSize(320, 200);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(true);
    if (m_state) {
        connect(m_state, &RunDocument::rankChanged, this, [this] { update(); });
    }
}

RankLanesView::~RankLanesView() = default;

void RankLanesView::setRuns(const QVector<Run>& runs) {
    bool same = !runs.isEmpty() && size_t(runs.size()) == m_runs.size();
    QStringList processes;
    for (int i = 0; i < runs.size(); ++i) {
        processes << runs[i].process;
        const auto r = size_t(i);
        if (same && (runs[i].trace ? runs[i].trace != m_runs[r].lock() : bool(m_hadRun[r]))) {
            same = false;
        }
    }
    if (same && processes == m_processes) {
        return;
    }
    ++m_generation;  // lanes still computing for older runs are dropped
    m_runs.clear();
    m_hadRun.clear();
    m_rankNumbers.clear();
    for (const Run& run : runs) {
        m_runs.push_back(run.trace);
        m_hadRun.push_back(run.trace != nullptr);
        m_rankNumbers.push_back(run.rank);
    }
    m_processes = processes;
    m_lanes.clear();
    m_commonSteps.clear();
    m_scaleBytes = 0;
    m_computing = false;
    m_pending = !runs.isEmpty();
    if (isVisible()) {
        ensureLanes();
    }
    update();
}

void RankLanesView::ensureLanes() {
    if (!m_pending) {
        return;
    }
    m_pending = false;
    // The runs are the session's while its run directory is open; one freed since is a lane
    // without a recording.
    QVector<Run> runs;
    int64_t events = 0;
    for (size_t i = 0; i < m_runs.size(); ++i) {
        Run run;
        run.rank = m_rankNumbers[i];
        run.process = m_processes.value(int(i));
        run.trace = m_runs[i].lock();
        events += run.trace ? int64_t(run.trace->events.count()) : 0;
        runs.append(std::move(run));
    }
    if (events <= kAsyncEvents) {
        adopt(lanesOfRuns(runs));
        return;
    }
    m_computing = true;
    update();
    const uint64_t generation = m_generation;
    whenFinished(this, QtConcurrent::run([runs] { return lanesOfRuns(runs); }),
                 [this, generation](std::vector<Lane> lanes) {
                     if (generation == m_generation) {
                         m_computing = false;
                         adopt(std::move(lanes));
                     }
                 });
}

void RankLanesView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    ensureLanes();
}

void RankLanesView::adopt(std::vector<Lane> lanes) {
    // The common axis: anchors are the start, every step any rank has, and the end. Each
    // anchor's place is where the ranks that have it need it: the furthest of (a rank's
    // previous anchor's place + the events between them on that rank).
    std::map<int32_t, bool> all_steps;
    for (const Lane& lane : lanes) {
        for (const auto& [step, x] : lane.steps) {
            all_steps[step] = true;
        }
    }
    struct Cursor {
        double x = 0;       // the lane's last anchor, on its own axis
        double common = 0;  // and its place on the common axis
        std::vector<double> a{0};
        std::vector<double> b{0};
    };
    std::vector<Cursor> cursors(lanes.size());
    m_commonSteps.clear();
    double last = 0;
    auto place = [&](const auto& x_of) {
        double at = last + 1;
        bool any = false;
        for (size_t i = 0; i < lanes.size(); ++i) {
            const double x = x_of(i);
            if (x >= 0) {
                at = std::max(at, cursors[i].common + (x - cursors[i].x));
                any = true;
            }
        }
        if (!any) {
            return -1.0;
        }
        for (size_t i = 0; i < lanes.size(); ++i) {
            const double x = x_of(i);
            if (x >= 0) {
                cursors[i].x = x;
                cursors[i].common = at;
                cursors[i].a.push_back(x);
                cursors[i].b.push_back(at);
            }
        }
        last = at;
        return at;
    };
    for (const auto& [step, unused] : all_steps) {
        const double at = place([&, step = step](size_t i) {
            if (lanes[i].missing) {
                return -1.0;
            }
            for (const auto& [s, x] : lanes[i].steps) {
                if (s == step) {
                    return x;
                }
            }
            return -1.0;
        });
        if (at >= 0) {
            m_commonSteps.emplace_back(step, at);
        }
    }
    const double end = place([&](size_t i) {
        return lanes[i].missing ? -1.0 : double(std::max<int64_t>(lanes[i].layout->xCount(), 1));
    });
    m_commonEnd = std::max(end, 1.0);
    m_scaleBytes = 0;
    for (size_t i = 0; i < lanes.size(); ++i) {
        if (!lanes[i].missing) {
            lanes[i].toCommon = StepAlignment::fromAnchors(cursors[i].a, cursors[i].b);
            m_scaleBytes = std::max(m_scaleBytes, lanes[i].peakBytes);
        }
    }
    m_lanes = std::move(lanes);
    update();
    emit lanesReady();
}

int RankLanesView::laneRank(int lane) const {
    return lane >= 0 && lane < laneCount() ? m_lanes[size_t(lane)].rank : -1;
}

int64_t RankLanesView::lanePeakBytes(int lane) const {
    return lane >= 0 && lane < laneCount() && !m_lanes[size_t(lane)].missing
               ? m_lanes[size_t(lane)].peakBytes
               : -1;
}

int64_t RankLanesView::lanePeakX(int lane) const {
    return lane >= 0 && lane < laneCount() ? m_lanes[size_t(lane)].peakX : -1;
}

QString RankLanesView::laneLabel(int lane) const {
    if (lane < 0 || lane >= laneCount()) {
        return QString();
    }
    const Lane& l = m_lanes[size_t(lane)];
    QString label = tr("rank %1").arg(l.rank);
    if (!l.process.isEmpty()) {
        label += QStringLiteral(" · ") + l.process;
    }
    if (l.missing) {
        return label + QStringLiteral(" · ") + tr("no recording");
    }
    label += QStringLiteral(" · ") + tr("peak %1").arg(bytesText(l.peakBytes));
    if (l.peakStep >= 1) {
        label += QLatin1Char(' ') +
                 tr("(step %1, %2)").arg(l.peakStep).arg(TimelineLabels::phaseName(l.peakPhase));
    }
    return label;
}

double RankLanesView::axisTopBytes() const {
    return TimelineMapping::niceByteTop(double(m_scaleBytes), 4);
}

QRectF RankLanesView::lanesArea() const {
    return QRectF(
        TimelineFramePainter::kLeft, kLanesHeader + kLanesStrip,
        std::max(1.0, width() - TimelineFramePainter::kLeft - TimelineFramePainter::kRight),
        std::max(1.0, height() - kLanesHeader - kLanesStrip - kLanesBottom));
}

QRectF RankLanesView::lanePlotRect(int lane) const {
    if (lane < 0 || lane >= laneCount()) {
        return QRectF();
    }
    const QRectF area = lanesArea();
    const double label = QFontMetricsF(font()).height() + 4;
    const double slot = area.height() / laneCount();
    const double top = area.top() + slot * lane + label;
    return QRectF(area.left(), top, area.width(), std::max(4.0, slot - label - kLanesGap));
}

double RankLanesView::commonToPixel(double u) const {
    const QRectF area = lanesArea();
    return area.left() + u / m_commonEnd * area.width();
}

double RankLanesView::laneXToPixel(int lane, double x) const {
    if (lane < 0 || lane >= laneCount() || m_lanes[size_t(lane)].missing) {
        return -1;
    }
    return commonToPixel(m_lanes[size_t(lane)].toCommon.aToB(x));
}

double RankLanesView::stepStartPixel(int lane, int32_t step) const {
    if (lane < 0 || lane >= laneCount()) {
        return -1;
    }
    for (const auto& [s, x] : m_lanes[size_t(lane)].steps) {
        if (s == step) {
            return laneXToPixel(lane, x);
        }
    }
    return -1;
}

QPointF RankLanesView::peakPoint(int lane) const {
    if (lane < 0 || lane >= laneCount() || m_lanes[size_t(lane)].peakX < 0) {
        return QPointF(-1, -1);
    }
    const Lane& l = m_lanes[size_t(lane)];
    const QRectF plot = lanePlotRect(lane);
    const double px = laneXToPixel(lane, double(l.peakX) + 0.5);
    const double py = plot.bottom() - double(l.peakBytes) / axisTopBytes() * plot.height();
    return QPointF(px, py);
}

int RankLanesView::laneAt(const QPointF& pos) const {
    const QRectF area = lanesArea();
    if (laneCount() == 0 || pos.y() < area.top() || pos.y() >= area.bottom() ||
        pos.x() < area.left() - TimelineFramePainter::kLeft || pos.x() > area.right()) {
        return -1;
    }
    return std::clamp(int((pos.y() - area.top()) / (area.height() / laneCount())), 0,
                      laneCount() - 1);
}

QString RankLanesView::toolTipAt(const QPointF& pos) const {
    const int i = laneAt(pos);
    if (i < 0 || !lanePlotRect(i).contains(pos) || m_lanes[size_t(i)].missing) {
        return QString();
    }
    const Lane& lane = m_lanes[size_t(i)];
    const QRectF area = lanesArea();
    const double u = (pos.x() - area.left()) / area.width() * m_commonEnd;
    const int64_t x = std::clamp<int64_t>(int64_t(std::floor(lane.toCommon.bToA(u))), 0,
                                          lane.layout->xCount() - 1);
    if (x < 0) {
        return QString();
    }
    int32_t step = 0;
    for (const auto& [s, start] : lane.steps) {
        if (start <= double(x)) {
            step = s;
        }
    }
    QString text = tr("rank %1").arg(lane.rank);
    if (step >= 1) {
        text += QStringLiteral(" · ") + tr("step %1").arg(step);
    }
    text += QLatin1Char('\n') + tr("%1 in use").arg(bytesText(lane.layout->totalAt(x)));
    const TimelineLayout::CategoryBytes bytes = lane.layout->categoryBytesAt(x);
    for (int c = kCategoryCount - 1; c >= 0; --c) {  // top of the stack first
        if (bytes[size_t(c)] > 0) {
            text += QLatin1Char('\n') +
                    tr("%1: %2").arg(TimelineLabels::categoryName(c), bytesText(bytes[size_t(c)]));
        }
    }
    return text;
}

bool RankLanesView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
        return true;
    }
    return QWidget::event(event);
}

void RankLanesView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), Qt::white);
    const QFontMetricsF fm(font());
    const QColor text(50, 50, 50);
    const QRectF area = lanesArea();
    if (m_computing || m_lanes.empty()) {
        painter.setPen(QColor(110, 110, 110));
        painter.drawText(rect(), Qt::AlignCenter,
                         m_computing ? tr("Laying out %1 ranks…").arg(m_runs.size())
                                     : tr("Open a run directory to see all its ranks"));
        return;
    }

    // Header: title, what the view is, and the categories of any rank.
    QFont title_font = font();
    title_font.setBold(true);
    title_font.setPointSizeF(font().pointSizeF() > 0 ? font().pointSizeF() * 1.2 : 11);
    const QFontMetricsF title_fm(title_font);
    const double title_base = 6 + title_fm.ascent();
    painter.setFont(title_font);
    painter.setPen(QColor(30, 30, 30));
    const QString title = tr("All ranks");
    painter.drawText(QPointF(area.left(), title_base), title);
    painter.setFont(font());
    painter.setPen(QColor(100, 100, 100));
    painter.drawText(QPointF(area.left() + title_fm.horizontalAdvance(title) + 14, title_base),
                     tr("%1 ranks · steps aligned · one memory scale (highest peak %2)")
                         .arg(laneCount())
                         .arg(bytesText(m_scaleBytes)));
    std::array<bool, kCategoryCount> present{};
    for (const Lane& lane : m_lanes) {
        for (int c = 0; c < kCategoryCount; ++c) {
            present[size_t(c)] =
                present[size_t(c)] || (lane.colors && lane.colors->categoryPresent(c));
        }
    }
    const double legend_base = kLanesHeader - 8 - fm.descent();
    const double box = std::round(fm.ascent() * 0.9);
    double lx = area.left();
    for (int c = 0; c < kCategoryCount; ++c) {
        if (!present[size_t(c)]) {
            continue;
        }
        const QColor color = TimelineColors::categoryColor(c);
        painter.setPen(QPen(color.darker(130), 0));
        painter.setBrush(color);
        painter.drawRect(QRectF(lx, legend_base - box + 1, box, box));
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QColor(40, 40, 40));
        const QString name = TimelineLabels::categoryName(c);
        painter.drawText(QPointF(lx + box + 5, legend_base), name);
        lx += box + 5 + fm.horizontalAdvance(name) + 16;
    }

    // Then the phases of the bands behind the data.
    std::array<bool, kPhaseCount> phases{};
    for (const Lane& lane : m_lanes) {
        for (const Lane::Band& band : lane.phases) {
            phases[size_t(band.phase)] = true;
        }
    }
    lx += 8;
    for (int p = 0; p < kPhaseCount; ++p) {
        if (!phases[size_t(p)]) {
            continue;
        }
        const QColor color = TimelineColors::phaseBackground(p);
        painter.setPen(QPen(color.darker(140), 0));
        painter.setBrush(color);
        painter.drawRect(QRectF(lx, legend_base - box + 1, box, box));
        painter.setBrush(Qt::NoBrush);
        painter.setPen(TimelineColors::phaseText(p));
        const QString name = TimelineLabels::phaseName(p);
        painter.drawText(QPointF(lx + box + 5, legend_base), name);
        lx += box + 5 + fm.horizontalAdvance(name) + 16;
    }

    const double top = axisTopBytes();
    const int current = m_state ? m_state->rank() : -1;
    for (int i = 0; i < laneCount(); ++i) {
        const Lane& lane = m_lanes[size_t(i)];
        const QRectF plot = lanePlotRect(i);
        // The lane's label above its plot; the rank shown in detail in bold.
        QFont label_font = font();
        label_font.setBold(lane.rank == current);
        painter.setFont(label_font);
        painter.setPen(lane.missing ? QColor(140, 140, 140) : QColor(30, 30, 30));
        painter.drawText(QPointF(plot.left(), plot.top() - 4 - fm.descent()), laneLabel(i));
        painter.setFont(font());
        painter.fillRect(plot, QColor(248, 248, 248));
        if (!lane.missing) {
            // The phases' bands, as the detailed timeline has them; left out when they would
            // average under a few pixels (hundreds of steps would stripe the lane).
            const double narrowest =
                plot.width() / double(std::max<size_t>(lane.phases.size(), 1)) < 4 ? 8 : 0.5;
            for (const Lane::Band& band : lane.phases) {
                const double px0 = laneXToPixel(i, band.x0);
                const double px1 = laneXToPixel(i, band.x1);
                if (px1 - px0 >= narrowest) {
                    painter.fillRect(QRectF(QPointF(px0, plot.top()), QPointF(px1, plot.bottom())),
                                     TimelineColors::phaseBackground(band.phase));
                }
            }
            const std::vector<double>& a = lane.toCommon.a;
            const std::vector<double>& b = lane.toCommon.b;
            for (size_t s = 0; s + 1 < a.size(); ++s) {
                const double px0 = commonToPixel(b[s]);
                const double px1 = commonToPixel(b[s + 1]);
                if (px1 - px0 < 1e-3) {
                    continue;
                }
                // One linear piece of the lane: drawn as the detailed timeline's category plot
                // draws a window of it.
                TimelineMapping m;
                m.x0 = a[s];
                m.x1 = a[s + 1];
                m.ymax = top;
                m.left = px0;
                m.width = px1 - px0;
                m.top = plot.top();
                m.height = plot.height();
                TimelinePaintContext context(nullptr, *lane.layout, *lane.colors, m);
                // One x more than the piece holds: zoomed out, a column takes the x's whose
                // left edge falls in it, so the column the piece ends in takes the next x.
                context.wx1 = std::min(lane.layout->xCount(), context.wx1 + 1);
                painter.save();
                // Whole pixel columns, so that neighbouring pieces meet without a gap.
                const int c0 = int(std::lround(px0));
                const int c1 = int(std::lround(px1));
                if (c1 <= c0) {
                    painter.restore();
                    continue;
                }
                painter.setClipRect(QRectF(c0, plot.top(), c1 - c0, plot.height()));
                TimelineCategoryPainter(context).paint(painter);
                painter.restore();
            }
        }
        // The shared byte scale, on every lane.
        const double step =
            TimelineMapping::byteTickStep(top, std::max(1, int(plot.height() / 30)));
        for (const double tick : TimelineMapping::ticks(0, top, step)) {
            const double y = std::round(plot.bottom() - tick / top * plot.height()) + 0.5;
            painter.setPen(QPen(QColor(0, 0, 0, 120), 0));
            painter.drawLine(QPointF(plot.left() - 4, y), QPointF(plot.left(), y));
            painter.setPen(text);
            const QString label =
                tick == 0 ? QStringLiteral("0") : TimelineFramePainter::byteTickLabel(tick, top);
            painter.drawText(
                QRectF(0, y - fm.height() / 2, TimelineFramePainter::kLeft - 8, fm.height()),
                Qt::AlignRight | Qt::AlignVCenter, label);
        }
        painter.setPen(
            QPen(lane.rank == current ? palette().color(QPalette::Highlight) : QColor(0, 0, 0, 90),
                 lane.rank == current ? 2 : 0));
        painter.drawRect(plot);
        if (lane.missing) {
            painter.setPen(QColor(140, 140, 140));
            painter.drawText(plot, Qt::AlignCenter, tr("no recording of this rank"));
            continue;
        }
        // The lane's own peak: the detailed timeline's dot, and its bytes beside it.
        const QPointF peak = peakPoint(i);
        painter.save();
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.setPen(QPen(TimelineColors::peak(), 1, Qt::DashLine));
        painter.drawLine(QPointF(plot.left(), peak.y()), QPointF(peak.x(), peak.y()));
        painter.setPen(QPen(Qt::white, 1.5));
        painter.setBrush(TimelineColors::peak());
        painter.drawEllipse(peak, 4.0, 4.0);
        QFont bold = font();
        bold.setBold(true);
        painter.setFont(bold);
        const QFontMetricsF bold_fm(bold);
        const QString peak_label = tr("peak %1").arg(bytesText(lane.peakBytes));
        const double w = bold_fm.horizontalAdvance(peak_label) + 10;
        const double h = bold_fm.height() + 2;
        double left = peak.x() + 8;
        if (left + w > plot.right() - 2) {
            left = peak.x() - 8 - w;
        }
        const double label_top =
            std::clamp(peak.y() - h / 2, plot.top() + 1, plot.bottom() - h - 1);
        const QRectF box_rect(std::max(left, plot.left() + 2), label_top, w, h);
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(255, 255, 255, 220));
        painter.drawRoundedRect(box_rect, 3, 3);
        painter.setPen(TimelineColors::peak().darker(120));
        painter.drawText(box_rect, Qt::AlignCenter, peak_label);
        painter.restore();
    }

    // Step starts: one dashed line through every lane, labelled in the strip above them.
    if (!m_commonSteps.empty()) {
        const int32_t stride = TimelineStepPainter::stepLineStride(
            area.width() / double(std::max<size_t>(m_commonSteps.size(), 1)));
        painter.setFont(font());
        for (const auto& [step, u] : m_commonSteps) {
            if (step % stride != 0 && step != m_commonSteps.front().first) {
                continue;
            }
            const double x = std::round(commonToPixel(u)) + 0.5;
            painter.setPen(QPen(QColor(60, 60, 60, 150), 0, Qt::DashLine));
            for (int i = 0; i < laneCount(); ++i) {
                const QRectF plot = lanePlotRect(i);
                painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
            }
            painter.setPen(text);
            painter.drawText(QPointF(x + 3, kLanesHeader + kLanesStrip - 5 - fm.descent()),
                             tr("step %1").arg(step));
        }
    }

    if (m_hoverPx >= area.left() && m_hoverPx <= area.right()) {
        painter.setPen(QPen(QColor(0, 0, 0, 110), 0));
        for (int i = 0; i < laneCount(); ++i) {
            const QRectF plot = lanePlotRect(i);
            painter.drawLine(QPointF(m_hoverPx, plot.top()), QPointF(m_hoverPx, plot.bottom()));
        }
    }

    // What the x axis is, and what a click does.
    const double baseline = height() - 6 - fm.descent();
    const QString hint =
        tr("Click a lane: its rank in detail; double-click: the detailed timeline");
    const double hint_width = fm.horizontalAdvance(hint);
    painter.setPen(QColor(90, 90, 90));
    painter.drawText(QPointF(area.right() - hint_width, baseline), hint);
    painter.setPen(text);
    painter.drawText(QPointF(area.left(), baseline),
                     fm.elidedText(tr("Each rank's allocation and free events, stretched between "
                                      "step starts so that every step begins at the same place"),
                                   Qt::ElideRight, std::max(0.0, area.width() - hint_width - 24)));
}

void RankLanesView::mousePressEvent(QMouseEvent* event) {
    const int lane = laneAt(event->position());
    if (event->button() == Qt::LeftButton && lane >= 0 && !m_lanes[size_t(lane)].missing &&
        m_state) {
        m_state->setRank(m_lanes[size_t(lane)].rank);
        event->accept();
        return;
    }
    QWidget::mousePressEvent(event);
}

void RankLanesView::mouseDoubleClickEvent(QMouseEvent* event) {
    const int lane = laneAt(event->position());
    if (event->button() == Qt::LeftButton && lane >= 0 && !m_lanes[size_t(lane)].missing &&
        m_state) {
        m_state->setRank(m_lanes[size_t(lane)].rank);
        emit laneActivated(m_lanes[size_t(lane)].rank);
        event->accept();
        return;
    }
    QWidget::mouseDoubleClickEvent(event);
}

void RankLanesView::mouseMoveEvent(QMouseEvent* event) {
    const double px = laneAt(event->position()) >= 0 ? std::round(event->position().x()) + 0.5 : -1;
    if (px != m_hoverPx) {
        m_hoverPx = px;
        update();
    }
    QWidget::mouseMoveEvent(event);
}

void RankLanesView::leaveEvent(QEvent* event) {
    if (m_hoverPx >= 0) {
        m_hoverPx = -1;
        update();
    }
    QWidget::leaveEvent(event);
}

void RankLanesView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        update();
    }
    QWidget::changeEvent(event);
}

}  // namespace memscope
