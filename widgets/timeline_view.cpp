#include "timeline_view.h"

#include "trace/timeline_layout.h"
#include "trace/trace.h"
#include "trace/trace_summary.h"

#include <nlohmann/json.hpp>

#include <QElapsedTimer>
#include <QEvent>
#include <QFontMetricsF>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <vector>

namespace memscope {
namespace {

// Tableau-like hues, one per Category in enum order, readable on white and in print.
constexpr QRgb k_category_rgb[kCategoryCount] = {
    0x4E79A7,  // Parameter
    0xB07AA1,  // OptimizerState
    0xEDC948,  // Input
    0xE15759,  // Temporary
    0xF28E2B,  // Activation
    0x59A14F,  // Gradient
    0x76B7B2,  // AutogradDetail
    0x9D9D9D,  // Unknown
};
constexpr QRgb k_band_rgb = 0xC5CBD3;
constexpr QRgb k_total_rgb = 0x2B2F36;
constexpr QRgb k_peak_rgb = 0xC62828;
// Background of each Phase (Init, Forward, Backward, Optimizer, Other): light enough to sit
// behind the allocations, distinct enough to read the phases.
constexpr QRgb k_phase_rgb[kPhaseCount] = {0xF1F1F1, 0xE6EEF9, 0xFBEBDD, 0xE4F2E0, 0xF4F4F4};
constexpr QRgb k_phase_text_rgb[kPhaseCount] = {0x777777, 0x3A6AA8, 0xB0652A, 0x4C8A3F, 0x777777};

// Margins around the plot, in pixels.
constexpr double k_left = 76;
constexpr double k_right = 18;
constexpr double k_header = 50;  // title and legend
constexpr double k_strip = 30;   // step labels and phase names above the plot
constexpr double k_bottom = 46;  // tick labels, axis title, detail

QColor shade(int category, int64_t allocation) {
    // Neighbours in the stack are usually consecutive allocations: four shades tell them apart.
    const QColor base =
        QColor::fromRgb(k_category_rgb[std::clamp(category, 0, kCategoryCount - 1)]);
    switch (allocation & 3) {
        case 1:
            return base.darker(112);
        case 2:
            return base.lighter(112);
        case 3:
            return base.darker(125);
        default:
            return base;
    }
}

QString humanBytes(int64_t bytes) {
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

QString exactBytes(int64_t bytes) {
    return QLocale().toString(qint64(bytes));
}

// A sub-pixel allocation waiting to be merged with its neighbours: in pixel column `bucket`
// covering rows [lo, hi) when it is narrower than a pixel, or in pixel row `bucket` covering
// columns [lo, hi) when it is thinner than one.
struct SpanItem {
    int bucket;
    int category;
    float lo;
    float hi;
};

// Merges items of one bucket and category that touch or overlap into runs and hands each run to
// emit(bucket, category, lo, hi). A million sub-pixel allocations become a few thousand
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
            if (it->category == run.category && it->lo <= run.hi + 1.0f) {
                run.hi = std::max(run.hi, it->hi);
            } else {
                paint(b, run.category, run.lo, run.hi);
                ++runs;
                run = *it;
            }
        }
        paint(b, run.category, run.lo, run.hi);
        ++runs;
    }
    return runs;
}

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("timeline_view"));
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(320, 200);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

TimelineView::~TimelineView() = default;

void TimelineView::setTrace(std::shared_ptr<const Trace> trace,
                            std::shared_ptr<TimelineLayout> layout) {
    m_trace = std::move(trace);
    m_layout = std::move(layout);
    if (m_trace && !m_layout) {
        m_layout = std::make_shared<TimelineLayout>(*m_trace);
    }
    if (!m_trace) {
        m_layout.reset();
    }
    rebuildDerived();
    m_hovered = -1;
    m_selected = -1;
    m_userDetail = false;
    resetView();
    if (m_layout) {
        emit detailChanged(m_layout->detail());
    }
}

void TimelineView::updateTrace(std::shared_ptr<const Trace> trace,
                               std::shared_ptr<TimelineLayout> layout) {
    if (!m_layout || !trace) {
        setTrace(std::move(trace), std::move(layout));
        return;
    }
    if (!layout) {
        layout = std::make_shared<TimelineLayout>(*trace);
    }
    const double old_end = std::max<double>(double(m_layout->xCount()), 1.0);
    const int64_t old_detail = m_layout->detail();
    const double span = m_x1 - m_x0;
    const bool showed_all = m_x0 <= 0 && m_x1 >= old_end;
    const bool following = m_x1 >= old_end;
    if (m_userDetail) {
        layout->setDetail(old_detail);
    }
    m_trace = std::move(trace);
    m_layout = std::move(layout);
    rebuildDerived();
    const int64_t count = m_layout->allocationCount();
    if (m_selected >= count) {
        m_selected = -1;
        emit allocationSelected(-1);
    }
    if (m_hovered >= count || (m_hovered >= 0 && m_layout->drawnIndexOf(m_hovered) < 0)) {
        m_hovered = -1;
    }
    const double new_end = std::max<double>(double(m_layout->xCount()), 1.0);
    double x0 = m_x0;
    double x1 = m_x1;
    if (showed_all) {
        x0 = 0;
        x1 = new_end;
    } else if (following) {
        x1 = new_end;
        x0 = std::max(0.0, new_end - span);
    }
    TimelineMapping m;
    m.x0 = x0;
    m.x1 = x1;
    m = m.clampedTo(0, new_end);
    if (m.x0 != m_x0 || m.x1 != m_x1) {
        m_x0 = m.x0;
        m_x1 = m.x1;
        emit visibleRangeChanged(m_x0, m_x1);
    }
    if (m_layout->detail() != old_detail) {
        emit detailChanged(m_layout->detail());
    }
    update();
}

void TimelineView::rebuildDerived() {
    m_categoryPresent.fill(false);
    if (m_layout) {
        for (int64_t a = 0; a < m_layout->allocationCount(); ++a) {
            m_categoryPresent[size_t(m_layout->categoryOf(a)) % m_categoryPresent.size()] = true;
        }
    }
}

void TimelineView::setPlaceholderText(const QString& text) {
    m_placeholder = text;
    update();
}

void TimelineView::setDetail(int64_t n) {
    if (!m_layout) {
        return;
    }
    m_userDetail = true;
    if (std::clamp<int64_t>(n, 0, m_layout->allocationCount()) == m_layout->detail()) {
        return;
    }
    m_layout->setDetail(n);
    if (m_hovered >= 0 && m_layout->drawnIndexOf(m_hovered) < 0) {
        m_hovered = -1;
    }
    emit detailChanged(m_layout->detail());
    update();
}

void TimelineView::setDetailPercent(double percent) {
    if (m_layout) {
        setDetail(m_layout->detailForPercent(percent));
    }
}

int64_t TimelineView::detail() const {
    return m_layout ? m_layout->detail() : 0;
}

int64_t TimelineView::allocationCount() const {
    return m_layout ? m_layout->allocationCount() : 0;
}

QString TimelineView::detailText() const {
    return tr("Detail: %1 of %2 allocations")
        .arg(QLocale().toString(qint64(detail())), QLocale().toString(qint64(allocationCount())));
}

void TimelineView::setVisibleRange(double x0, double x1) {
    const double limit = m_layout ? std::max<double>(double(m_layout->xCount()), 1.0) : 1.0;
    if (!(x1 > x0)) {
        x1 = x0 + 1;
    }
    TimelineMapping m;
    m.x0 = x0;
    m.x1 = x1;
    m = m.clampedTo(0, limit);
    if (m.x0 == m_x0 && m.x1 == m_x1) {
        return;
    }
    m_x0 = m.x0;
    m_x1 = m.x1;
    emit visibleRangeChanged(m_x0, m_x1);
    update();
}

void TimelineView::resetView() {
    const double limit = m_layout ? std::max<double>(double(m_layout->xCount()), 1.0) : 1.0;
    m_x0 = 0;
    m_x1 = limit;
    emit visibleRangeChanged(m_x0, m_x1);
    update();
}

QRectF TimelineView::plotRect(const QRectF& area) const {
    const double top = area.top() + k_header + k_strip;
    return QRectF(area.left() + k_left, top, std::max(area.width() - k_left - k_right, 10.0),
                  std::max(area.bottom() - k_bottom - top, 10.0));
}

TimelineMapping TimelineView::mapping(const QRectF& area) const {
    const QRectF plot = plotRect(area);
    TimelineMapping m;
    m.x0 = m_x0;
    m.x1 = m_x1;
    m.left = plot.left();
    m.top = plot.top();
    m.width = plot.width();
    m.height = plot.height();
    const int64_t visible_max =
        m_layout ? m_layout->maxTotal(int64_t(std::floor(m_x0)), int64_t(std::ceil(m_x1))) : 0;
    m.ymax = TimelineMapping::niceByteTop(double(visible_max), std::max(2, int(m.height / 70)));
    return m;
}

int64_t TimelineView::allocationAt(const QPointF& pos) const {
    if (!m_layout || !plotRect(QRectF(rect())).contains(pos)) {
        return -1;
    }
    const TimelineMapping m = mapping();
    const double x = m.pixelToX(pos.x());
    // Thin allocations are often under a pixel tall: probe a pixel either side too.
    for (const double dy : {0.0, 1.0, -1.0, 2.0, -2.0}) {
        const int64_t a = m_layout->hitTest(x, m.pixelToBytes(pos.y() + dy));
        if (a >= 0) {
            return a;
        }
    }
    return -1;
}

void TimelineView::selectAllocation(int64_t index) {
    if (!m_layout || index < 0 || index >= m_layout->allocationCount()) {
        index = -1;
    }
    m_selected = index;
    update();
    emit allocationSelected(int(index));
}

QString TimelineView::categoryName(int category) {
    switch (static_cast<Category>(category)) {
        case Category::Parameter:
            return tr("Parameter");
        case Category::OptimizerState:
            return tr("Optimizer state");
        case Category::Input:
            return tr("Input");
        case Category::Temporary:
            return tr("Temporary");
        case Category::Activation:
            return tr("Activation");
        case Category::Gradient:
            return tr("Gradient");
        case Category::AutogradDetail:
            return tr("Autograd detail");
        case Category::Unknown:
            break;
    }
    return tr("Unknown");
}

QString TimelineView::phaseName(int phase) {
    switch (static_cast<Phase>(phase)) {
        case Phase::Init:
            return tr("init");
        case Phase::Forward:
            return tr("forward");
        case Phase::Backward:
            return tr("backward");
        case Phase::Optimizer:
            return tr("optimizer");
        case Phase::Other:
            break;
    }
    return tr("other");
}

QColor TimelineView::categoryColor(int category) {
    return QColor::fromRgb(k_category_rgb[std::clamp(category, 0, kCategoryCount - 1)]);
}

QString TimelineView::byteTickLabel(double bytes, double top) {
    // One unit for the whole axis, the largest the top reaches: "0.5 GiB ... 3.5 GiB" rather
    // than "512 MiB ... 3,584 MiB".
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    double scale = 1;
    while (unit < 4 && top >= scale * 1024) {
        scale *= 1024;
        ++unit;
    }
    return QStringLiteral("%1 %2").arg(QLocale().toString(bytes / scale, 'g', 6),
                                       QLatin1String(units[unit]));
}

QString TimelineView::tooltipText(int64_t allocation, int64_t x) const {
    if (!m_trace || !m_layout) {
        return {};
    }
    if (allocation < 0 || allocation >= m_layout->allocationCount()) {
        if (x < 0 || x >= m_layout->xCount()) {
            return {};
        }
        const int64_t bytes = m_layout->summarizedAt(x);
        return tr("<b>Summarized</b><br/>%1 bytes (%2) in allocations below the detail level "
                  "at event %3<br/>%4 of %5 allocations are summarized")
            .arg(exactBytes(bytes), humanBytes(bytes), QLocale().toString(qint64(x)),
                 QLocale().toString(qint64(m_layout->summarizedCount())),
                 QLocale().toString(qint64(m_layout->allocationCount())));
    }
    const Allocation& a = m_trace->allocations()[size_t(allocation)];
    const auto& events = m_trace->events;
    const int64_t event = a.alloc_event >= 0 ? a.alloc_event : a.free_event;
    const uint32_t stack = event >= 0 ? events.stack[size_t(event)] : StackTable::kEmpty;
    QStringList lines;
    lines << tr("<b>Allocation %1</b>").arg(QLocale().toString(qint64(allocation)));
    lines << tr("%1 bytes (%2)").arg(exactBytes(a.size), humanBytes(a.size));
    lines << tr("Category: %1").arg(categoryName(int(a.category)));
    if (a.alloc_event >= 0) {
        lines << tr("Phase: %1, step %2")
                     .arg(phaseName(events.phase[size_t(a.alloc_event)]))
                     .arg(events.step[size_t(a.alloc_event)]);
    } else {
        lines << tr("Phase: before recording");
    }
    const QString module = QString::fromStdString(TraceSummary::moduleOf(m_trace->stacks, stack));
    const QString op = QString::fromStdString(TraceSummary::operatorOf(m_trace->stacks, stack));
    if (!module.isEmpty()) {
        lines << tr("Module: %1").arg(module.toHtmlEscaped());
    }
    if (!op.isEmpty()) {
        lines << tr("Operator: %1").arg(op.toHtmlEscaped());
    }
    const int64_t begin = m_layout->beginX(allocation);
    const int64_t end = m_layout->endX(allocation);
    lines << (a.alloc_event >= 0
                  ? tr("Allocated at event %1").arg(QLocale().toString(qint64(begin)))
                  : tr("Present from the start"));
    lines << (a.free_event >= 0 ? tr("Freed at event %1").arg(QLocale().toString(qint64(end)))
                                : tr("Never freed"));
    if (begin < m_layout->xCount()) {
        lines << tr("Total memory after allocation: %1").arg(humanBytes(m_layout->totalAt(begin)));
    }
    if (m_layout->drawnIndexOf(allocation) < 0) {
        lines << tr("(summarized at this detail)");
    }
    return lines.join(QStringLiteral("<br/>"));
}

void TimelineView::renderTo(QPainter& painter, const QRectF& area) {
    paintAll(painter, area);
}

QImage TimelineView::renderImage(const QSize& size, qreal scale) {
    scale = std::clamp<qreal>(scale, 1, 4);
    QImage image(QSize(int(std::ceil(size.width() * scale)), int(std::ceil(size.height() * scale))),
                 QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setFont(font());
    paintAll(painter, QRectF(QPointF(0, 0), QSizeF(size)));
    return image;
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    paintAll(painter, QRectF(rect()));
}

void TimelineView::paintAll(QPainter& painter, const QRectF& area) {
    QElapsedTimer timer;
    timer.start();
    m_stats = PaintStats{};
    painter.fillRect(area, Qt::white);
    if (!m_layout) {
        painter.setPen(palette().color(QPalette::Disabled, QPalette::WindowText));
        painter.drawText(area, Qt::AlignCenter,
                         m_placeholder.isEmpty() ? tr("No run open") : m_placeholder);
        return;
    }
    const TimelineMapping m = mapping(area);
    const QRectF plot(m.left, m.top, m.width, m.height);
    paintHeader(painter, area);

    painter.save();
    painter.setClipRect(plot.adjusted(0, 0, 1, 1));
    painter.setRenderHint(QPainter::Antialiasing, false);
    paintPhases(painter, m, QRectF(plot.left(), plot.top() - k_strip, plot.width(), k_strip));
    // Grid behind the data.
    painter.setPen(QPen(QColor(0, 0, 0, 28), 0));
    const double step = TimelineMapping::byteTickStep(m.ymax, std::max(2, int(m.height / 70)));
    for (const double tick : TimelineMapping::ticks(step, m.ymax, step)) {
        const double y = std::round(m.bytesToPixel(tick)) + 0.5;
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
    }
    paintBandAndTotal(painter, m);
    paintAllocations(painter, m);
    // The total on top of everything: the outline users read the peak from.
    {
        const int64_t wx0 = std::max<int64_t>(0, int64_t(std::floor(m.x0)));
        const int64_t wx1 = std::min(m_layout->xCount(), int64_t(std::ceil(m.x1)));
        QPolygonF line;
        if (wx1 - wx0 <= int64_t(m.width)) {
            for (int64_t x = wx0; x < wx1; ++x) {
                const double y = m.bytesToPixel(double(m_layout->totalAt(x)));
                line << QPointF(m.xToPixel(double(x)), y) << QPointF(m.xToPixel(double(x + 1)), y);
            }
        } else {
            const int columns = int(std::ceil(m.width));
            std::vector<int64_t> top(size_t(columns), -1);
            for (int64_t x = wx0; x < wx1; ++x) {
                const int c = std::clamp(int((double(x) - m.x0) * m.pixelsPerX()), 0, columns - 1);
                top[size_t(c)] = std::max(top[size_t(c)], m_layout->totalAt(x));
            }
            for (int c = 0; c < columns; ++c) {
                if (top[size_t(c)] >= 0) {
                    const double y = m.bytesToPixel(double(top[size_t(c)]));
                    line << QPointF(m.left + c, y) << QPointF(m.left + c + 1, y);
                }
            }
        }
        // Only horizontal and vertical segments: antialiasing would add nothing but cost (it
        // made this line most of a full paint).
        painter.setPen(QPen(QColor::fromRgb(k_total_rgb), 0));
        painter.drawPolyline(line);
    }
    // Step boundaries over the data, light enough not to hide it.
    if (m_trace) {
        QPen pen(QColor(60, 60, 60, 110), 0, Qt::DashLine);
        painter.setPen(pen);
        int32_t previous_step = -1;
        for (const PhaseInterval& interval : m_trace->phases) {
            if (interval.step != previous_step && interval.step >= 1) {
                const double px =
                    std::round(m.xToPixel(double(m_layout->xAtTime(interval.begin_ns))));
                painter.drawLine(QPointF(px + 0.5, plot.top()), QPointF(px + 0.5, plot.bottom()));
            }
            previous_step = interval.step;
        }
    }
    if (m_selected >= 0) {
        paintHighlight(painter, m, m_selected, true);
    }
    if (m_hovered >= 0 && m_hovered != m_selected) {
        paintHighlight(painter, m, m_hovered, false);
    }
    painter.restore();

    painter.setPen(QPen(QColor(0, 0, 0, 90), 0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(plot);
    paintPeak(painter, m);
    paintAxes(painter, m, area);
    m_stats.milliseconds = double(timer.nsecsElapsed()) / 1e6;
}

void TimelineView::paintPhases(QPainter& painter, const TimelineMapping& m,
                               const QRectF& strip) const {
    if (!m_trace) {
        return;
    }
    // Bands inside the plot (the clip keeps them there); labels go in the strip above.
    const QRectF plot(m.left, m.top, m.width, m.height);
    for (const PhaseInterval& interval : m_trace->phases) {
        const double px0 = m.xToPixel(double(m_layout->xAtTime(interval.begin_ns)));
        const double px1 = m.xToPixel(double(m_layout->xAtTime(interval.end_ns)));
        if (px1 < plot.left() || px0 > plot.right() || px1 - px0 < 0.5) {
            continue;
        }
        const int phase = std::clamp(int(interval.phase), 0, kPhaseCount - 1);
        painter.fillRect(QRectF(QPointF(px0, plot.top()), QPointF(px1, plot.bottom())),
                         QColor::fromRgb(k_phase_rgb[phase]));
    }
    // The strip lies outside the plot's clip: label it with its own clip.
    painter.save();
    painter.setClipRect(strip.adjusted(-2, 0, 2, 0));
    const QFontMetricsF fm(painter.font());
    const double row1 = strip.top() + fm.ascent() + 1;
    const double row2 = strip.bottom() - fm.descent() - 2;
    // Step labels at each step's first phase. A label whose step started left of the window
    // sticks to the left edge until the next one pushes it out.
    struct StepLabel {
        double x;
        QString text;
        bool sticky;  // its step began left of the window
    };
    std::vector<StepLabel> labels;
    int32_t previous_step = -1;
    for (const PhaseInterval& interval : m_trace->phases) {
        if (interval.step != previous_step && interval.step >= 1) {
            const double px = m.xToPixel(double(m_layout->xAtTime(interval.begin_ns)));
            labels.push_back({std::max(px, strip.left()) + 3, tr("step %1").arg(interval.step),
                              px < strip.left()});
        }
        previous_step = interval.step;
    }
    // Left to right, skipping labels that would overlap the previous one or run off the end
    // (a hundred steps show every few); the sticky first label yields to the next one.
    painter.setPen(QColor(60, 60, 60));
    double free_from = strip.left();
    for (size_t i = 0; i < labels.size(); ++i) {
        const double end = labels[i].x + fm.horizontalAdvance(labels[i].text);
        const bool yields = labels[i].sticky && i + 1 < labels.size() && labels[i + 1].x < end + 6;
        if (!yields && labels[i].x >= free_from && end <= strip.right()) {
            painter.drawText(QPointF(labels[i].x, row1), labels[i].text);
            free_from = end + 10;
        }
    }
    for (const PhaseInterval& interval : m_trace->phases) {
        const double px0 = m.xToPixel(double(m_layout->xAtTime(interval.begin_ns)));
        const double px1 = m.xToPixel(double(m_layout->xAtTime(interval.end_ns)));
        const int phase = std::clamp(int(interval.phase), 0, kPhaseCount - 1);
        const double left = std::max(px0, strip.left());
        const double right = std::min(px1, strip.right());
        const QString name = phaseName(phase);
        const double width = fm.horizontalAdvance(name);
        if (interval.phase != Phase::Init && right - left > width + 6) {
            painter.setPen(QColor::fromRgb(k_phase_text_rgb[phase]));
            painter.drawText(QPointF((left + right - width) / 2, row2), name);
        }
    }
    painter.restore();
}

void TimelineView::paintBandAndTotal(QPainter& painter, const TimelineMapping& m) {
    // The summarized band, [drawnTop, total), per x when zoomed in far enough for an x to be a
    // pixel or more, else per pixel column as its envelope (lowest drawn top to highest total):
    // the drawn allocations painted next cover whatever of it lies below them.
    const int64_t wx0 = std::max<int64_t>(0, int64_t(std::floor(m.x0)));
    const int64_t wx1 = std::min(m_layout->xCount(), int64_t(std::ceil(m.x1)));
    if (wx0 >= wx1 || m_layout->summarizedCount() == 0) {
        return;
    }
    // Filled as rectangles, neighbours with the same extent merged: a band polygon with
    // thousands of jagged vertices costs the raster engine several times more.
    const QColor color = QColor::fromRgb(k_band_rgb);
    QRectF run;
    auto add = [&](double px0, double px1, double y_hi, double y_lo) {
        if (y_lo - y_hi <= 0) {
            return;
        }
        m_stats.summarizedBand = true;
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
                m.bytesToPixel(double(m_layout->totalAt(x))),
                m.bytesToPixel(double(m_layout->drawnTopAt(x))));
        }
    } else {
        const int columns = int(std::ceil(m.width));
        std::vector<int64_t> hi(size_t(columns), -1);
        std::vector<int64_t> lo(size_t(columns), -1);
        for (int64_t x = wx0; x < wx1; ++x) {
            const int c = std::clamp(int((double(x) - m.x0) * m.pixelsPerX()), 0, columns - 1);
            const int64_t total = m_layout->totalAt(x);
            const int64_t drawn = m_layout->drawnTopAt(x);
            if (hi[size_t(c)] < 0) {
                hi[size_t(c)] = total;
                lo[size_t(c)] = drawn;
            } else {
                hi[size_t(c)] = std::max(hi[size_t(c)], total);
                lo[size_t(c)] = std::min(lo[size_t(c)], drawn);
            }
        }
        for (int c = 0; c < columns; ++c) {
            if (hi[size_t(c)] > lo[size_t(c)]) {
                add(m.left + c, m.left + c + 1, std::round(m.bytesToPixel(double(hi[size_t(c)]))),
                    std::round(m.bytesToPixel(double(lo[size_t(c)]))));
            }
        }
    }
    if (!run.isNull()) {
        painter.fillRect(run, color);
    }
}

QPolygonF TimelineView::allocationPolygon(const TimelineMapping& m, int64_t d,
                                          double min_height) const {
    const int64_t a = m_layout->drawnAllocation(d);
    const double lo_px = m.left - 2;
    const double hi_px = m.left + m.width + 2;
    const auto clampPx = [&](double px) { return std::clamp(px, lo_px, hi_px); };
    const int64_t begin = std::max(m_layout->beginX(a), int64_t(std::floor(m.x0)));
    const int64_t end = std::min(m_layout->endX(a), int64_t(std::ceil(m.x1)));
    const TimelinePoint* first = m_layout->pointsBegin(d);
    const TimelinePoint* last = m_layout->pointsEnd(d);
    const TimelinePoint* it = std::upper_bound(
        first, last, begin, [](int64_t value, const TimelinePoint& p) { return value < p.x; });
    if (it != first) {
        --it;
    }
    const double height = std::max(double(m_layout->sizeOf(a)) * m.height / m.ymax, min_height);
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

void TimelineView::paintAllocations(QPainter& painter, const TimelineMapping& m) {
    const int64_t wx0 = std::max<int64_t>(0, int64_t(std::floor(m.x0)));
    const int64_t wx1 = std::min(m_layout->xCount(), int64_t(std::ceil(m.x1)));
    if (wx0 >= wx1) {
        return;
    }
    const int columns = std::max(1, int(std::ceil(m.width)));
    const int first_row = int(std::floor(m.top)) - 2;
    const int rows = int(std::ceil(m.height)) + 4;
    std::vector<SpanItem> narrow;  // narrower than a pixel, per column
    std::vector<SpanItem> thin;    // thinner than a pixel (and wider), per row
    QColor shades[kCategoryCount][4];
    for (int c = 0; c < kCategoryCount; ++c) {
        for (int k = 0; k < 4; ++k) {
            shades[c][k] = shade(c, k);
        }
    }
    painter.setBrush(Qt::NoBrush);
    for (const int64_t d : m_layout->drawnIn(wx0, wx1)) {
        const int64_t a = m_layout->drawnAllocation(d);
        const int category = std::clamp(int(m_layout->categoryOf(a)), 0, kCategoryCount - 1);
        const int64_t begin = std::max(m_layout->beginX(a), wx0);
        const int64_t end = std::min(m_layout->endX(a), wx1);
        const double px0 = m.xToPixel(double(begin));
        const double px1 = m.xToPixel(double(end));
        ++m_stats.allocations;
        if (px1 - px0 < 1.0) {
            // Narrower than a pixel: its column shows the range it covered (its bottom only
            // moves down, so from the last bottom to the first top).
            const TimelinePoint* first = m_layout->pointsBegin(d);
            const TimelinePoint* last = m_layout->pointsEnd(d);
            const TimelinePoint* it =
                std::upper_bound(first, last, begin,
                                 [](int64_t value, const TimelinePoint& p) { return value < p.x; });
            if (it != first) {
                --it;
            }
            const int64_t top = it->y_bottom + m_layout->sizeOf(a);
            const TimelinePoint* end_it = std::lower_bound(
                it, last, end, [](const TimelinePoint& p, int64_t value) { return p.x < value; });
            const int64_t low = (end_it - 1)->y_bottom;
            const int column = std::clamp(int(px0 - m.left), 0, columns - 1);
            narrow.push_back({column, category, float(m.bytesToPixel(double(top))),
                              float(m.bytesToPixel(double(low)))});
            continue;
        }
        const double height = double(m_layout->sizeOf(a)) * m.height / m.ymax;
        const QColor& fill = shades[category][a & 3];
        // Big enough to read as a block: a darker edge separates it from its neighbours.
        const bool outlined = height >= 6 && px1 - px0 >= 6;
        const TimelinePoint* first = m_layout->pointsBegin(d);
        const TimelinePoint* last = m_layout->pointsEnd(d);
        const TimelinePoint* it = std::upper_bound(
            first, last, begin, [](int64_t value, const TimelinePoint& p) { return value < p.x; });
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
                    thin.push_back({row, category, float(piece_left), float(x)});
                    piece_left = x;
                    row = next_row;
                }
            }
            thin.push_back({row, category, float(piece_left), float(right)});
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
            painter.drawPolygon(allocationPolygon(m, d, 1.0));
        }
        ++m_stats.polygons;
    }

    painter.setPen(Qt::NoPen);
    m_stats.mergedRuns +=
        mergeSpans(narrow, columns, [&](int column, int category, float lo, float hi) {
            painter.fillRect(QRectF(m.left + column, lo, 1.0, std::max(hi - lo, 1.0f)),
                             shades[category][0]);
        });
    m_stats.mergedRuns += mergeSpans(thin, rows, [&](int row, int category, float lo, float hi) {
        painter.fillRect(QRectF(lo, first_row + row, std::max(hi - lo, 1.0f), 1.0),
                         shades[category][0]);
    });
}

void TimelineView::paintHighlight(QPainter& painter, const TimelineMapping& m, int64_t allocation,
                                  bool pinned) const {
    if (allocation < 0 || allocation >= m_layout->allocationCount()) {
        return;
    }
    const int64_t d = m_layout->drawnIndexOf(allocation);
    if (d < 0 || m_layout->beginX(allocation) >= std::ceil(m.x1) ||
        m_layout->endX(allocation) <= std::floor(m.x0)) {
        return;
    }
    QPolygonF polygon = allocationPolygon(m, d, 2.0);
    // Keep very narrow ones visible as at least a 3 pixel column.
    const QRectF box = polygon.boundingRect();
    if (box.width() < 3) {
        const double cx = box.center().x();
        polygon = QPolygonF(QRectF(cx - 1.5, box.top(), 3, box.height()));
    }
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setBrush(pinned ? QColor(255, 255, 255, 70) : QColor(255, 255, 255, 40));
    painter.setPen(QPen(QColor(10, 10, 10), pinned ? 2.4 : 1.4));
    painter.drawPolygon(polygon);
    painter.restore();
}

void TimelineView::paintPeak(QPainter& painter, const TimelineMapping& m) const {
    const int64_t wx0 = std::max<int64_t>(0, int64_t(std::floor(m.x0)));
    const int64_t wx1 = std::min(m_layout->xCount(), int64_t(std::ceil(m.x1)));
    if (wx0 >= wx1) {
        return;
    }
    int64_t x = m_layout->peakX();
    bool global = x >= wx0 && x < wx1;
    if (!global) {
        // The global peak is outside the window: mark the highest point inside it instead.
        const int64_t best = m_layout->maxTotal(wx0, wx1);
        for (x = wx0; x < wx1 && m_layout->totalAt(x) != best; ++x) {
        }
    }
    const int64_t bytes = m_layout->totalAt(x);
    const double px = std::clamp(m.xToPixel(double(x) + 0.5), m.left, m.left + m.width);
    const double py = m.bytesToPixel(double(bytes));
    QString label =
        global ? tr("peak %1").arg(humanBytes(bytes)) : tr("max in view %1").arg(humanBytes(bytes));
    if (m_trace) {
        const auto event = size_t(m_layout->eventAt(x));
        const int32_t step = m_trace->events.step[event];
        const int phase = m_trace->events.phase[event];
        label += step >= 1 ? tr(" · step %1, %2").arg(step).arg(phaseName(phase))
                           : tr(" · %1").arg(phaseName(phase));
    }
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(Qt::white, 1.5));
    painter.setBrush(QColor::fromRgb(k_peak_rgb));
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
    const double top = std::max(py - h - 4, m.top - k_strip + 2);
    const QRectF box(left, top, w, h);
    painter.setPen(QPen(QColor::fromRgb(k_peak_rgb), 1));
    painter.setBrush(QColor(255, 255, 255, 230));
    painter.drawRoundedRect(box, 3, 3);
    painter.setPen(QColor::fromRgb(k_peak_rgb).darker(120));
    painter.drawText(box, Qt::AlignCenter, label);
    painter.restore();
}

void TimelineView::paintAxes(QPainter& painter, const TimelineMapping& m,
                             const QRectF& area) const {
    const QRectF plot(m.left, m.top, m.width, m.height);
    const QFontMetricsF fm(painter.font());
    const QColor text = QColor(50, 50, 50);
    const QColor tick_pen = QColor(0, 0, 0, 120);

    // y: bytes in binary units.
    const double step = TimelineMapping::byteTickStep(m.ymax, std::max(2, int(m.height / 70)));
    for (const double tick : TimelineMapping::ticks(0, m.ymax, step)) {
        const double y = std::round(m.bytesToPixel(tick)) + 0.5;
        painter.setPen(QPen(tick_pen, 0));
        painter.drawLine(QPointF(plot.left() - 4, y), QPointF(plot.left(), y));
        painter.setPen(text);
        const QString label = tick == 0 ? QStringLiteral("0") : byteTickLabel(tick, m.ymax);
        painter.drawText(QRectF(area.left(), y - fm.height() / 2, k_left - 8, fm.height()),
                         Qt::AlignRight | Qt::AlignVCenter, label);
    }

    // x: event index.
    const double x_step = TimelineMapping::indexTickStep(m.span(), std::max(2, int(m.width / 110)));
    double label_end = -1e9;
    for (const double tick : TimelineMapping::ticks(std::ceil(m.x0), m.x1, x_step)) {
        const double x = std::round(m.xToPixel(tick)) + 0.5;
        painter.setPen(QPen(tick_pen, 0));
        painter.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 4));
        const QString label = QLocale().toString(qint64(tick));
        const double w = fm.horizontalAdvance(label);
        const double left = std::clamp(x - w / 2, area.left() + 2, area.right() - w - 2);
        if (left > label_end) {
            painter.setPen(text);
            painter.drawText(QPointF(left, plot.bottom() + 6 + fm.ascent()), label);
            label_end = left + w + 6;
        }
    }

    // Bottom line: what the window spans in time, the axis, and the detail level.
    const double baseline = area.bottom() - 6 - fm.descent();
    painter.setPen(QColor(90, 90, 90));
    const int64_t wx0 = std::clamp<int64_t>(int64_t(std::floor(m.x0)), 0,
                                            std::max<int64_t>(m_layout->xCount() - 1, 0));
    const int64_t wx1 = std::clamp<int64_t>(int64_t(std::ceil(m.x1)) - 1, 0,
                                            std::max<int64_t>(m_layout->xCount() - 1, 0));
    if (m_layout->xCount() > 0) {
        const QString time =
            tr("%1 s to %2 s")
                .arg(QLocale().toString(double(m_layout->timeAt(wx0)) / 1e9, 'f', 3),
                     QLocale().toString(double(m_layout->timeAt(wx1)) / 1e9, 'f', 3));
        painter.drawText(QPointF(plot.left(), baseline), time);
    }
    const QString axis = tr("Allocation and free events");
    painter.setPen(text);
    painter.drawText(QPointF(plot.center().x() - fm.horizontalAdvance(axis) / 2, baseline), axis);
    const QString detail = detailText();
    painter.setPen(QColor(90, 90, 90));
    painter.drawText(QPointF(plot.right() - fm.horizontalAdvance(detail), baseline), detail);
}

void TimelineView::paintHeader(QPainter& painter, const QRectF& area) const {
    const QFont base = painter.font();
    QFont title_font = base;
    title_font.setBold(true);
    title_font.setPointSizeF(base.pointSizeF() > 0 ? base.pointSizeF() * 1.2 : 11);
    const QFontMetricsF title_fm(title_font);
    const QFontMetricsF fm(base);
    const double left = area.left() + k_left;
    const double title_base = area.top() + 6 + title_fm.ascent();

    painter.setFont(title_font);
    painter.setPen(QColor(30, 30, 30));
    const QString title = tr("Active memory timeline");
    painter.drawText(QPointF(left, title_base), title);
    painter.setFont(base);
    painter.setPen(QColor(100, 100, 100));
    const QString subtitle = runSubtitle();
    painter.drawText(QPointF(left + title_fm.horizontalAdvance(title) + 14, title_base), subtitle);

    // Legend: the categories this run has, the summarized band and the total line.
    const double legend_base = area.top() + k_header - 8 - fm.descent();
    const double box = std::round(fm.ascent() * 0.9);
    double x = left;
    auto entry = [&](const QString& name, const QColor& color, bool line) {
        const double top = legend_base - box + 1;
        if (line) {
            painter.setPen(QPen(color, 2));
            painter.drawLine(QPointF(x, top + box / 2), QPointF(x + box, top + box / 2));
        } else {
            painter.setPen(QPen(color.darker(130), 0));
            painter.setBrush(color);
            painter.drawRect(QRectF(x, top, box, box));
            painter.setBrush(Qt::NoBrush);
        }
        painter.setPen(QColor(40, 40, 40));
        painter.drawText(QPointF(x + box + 5, legend_base), name);
        x += box + 5 + fm.horizontalAdvance(name) + 16;
    };
    for (int c = 0; c < kCategoryCount; ++c) {
        if (m_categoryPresent[size_t(c)]) {
            entry(categoryName(c), categoryColor(c), false);
        }
    }
    if (m_layout->summarizedCount() > 0) {
        entry(tr("Summarized (%1 smaller allocations)")
                  .arg(QLocale().toString(qint64(m_layout->summarizedCount()))),
              QColor::fromRgb(k_band_rgb), false);
    }
    entry(tr("Total"), QColor::fromRgb(k_total_rgb), true);
}

QString TimelineView::runSubtitle() const {
    if (!m_trace) {
        return {};
    }
    QStringList parts;
    const auto& c = m_trace->meta.config;
    if (c.is_object() && c.contains("preset")) {
        parts << QString::fromStdString(c.value("preset", std::string()));
        parts << tr("batch %1").arg(c.value("batch_size", 0));
        parts << tr("sequence %1").arg(c.value("seq_len", 0));
        parts << QString::fromStdString(c.value("dtype", std::string()));
        parts << QString::fromStdString(c.value("profile_type", std::string()));
    } else if (!m_trace->meta.source.empty()) {
        parts << QString::fromStdString(m_trace->meta.source);
    }
    if (!m_trace->meta.device.empty()) {
        parts << QString::fromStdString(m_trace->meta.device);
    }
    parts << tr("%1 allocations").arg(QLocale().toString(qint64(allocationCount())));
    parts.removeAll(QString());
    return parts.join(QStringLiteral(" · "));
}

void TimelineView::updateHover(const QPointF& pos, const QPoint& global_pos) {
    const int64_t a = allocationAt(pos);
    if (a != m_hovered) {
        m_hovered = a;
        update();
    }
    QString text;
    if (a >= 0) {
        text = tooltipText(a);
    } else if (m_layout && plotRect(QRectF(rect())).contains(pos)) {
        const TimelineMapping m = mapping();
        const double x = m.pixelToX(pos.x());
        if (m_layout->inSummarizedBand(x, m.pixelToBytes(pos.y()))) {
            text = tooltipText(-1, int64_t(std::floor(x)));
        }
    }
    if (text.isEmpty()) {
        QToolTip::hideText();
    } else {
        QToolTip::showText(global_pos, text, this);
    }
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    if (!m_layout || m_layout->xCount() == 0) {
        return;
    }
    const double notches = event->angleDelta().y() / 120.0;
    if (notches == 0) {
        return;
    }
    const double limit = double(m_layout->xCount());
    const TimelineMapping zoomed =
        mapping().zoomedAt(event->position().x(), std::pow(1.25, notches), 0, limit, kMinimumSpan);
    setVisibleRange(zoomed.x0, zoomed.x1);
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    m_pressed = true;
    m_dragging = false;
    m_pressPos = event->position();
    m_pressX0 = m_x0;
    m_pressX1 = m_x1;
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    if (m_pressed && (event->buttons() & Qt::LeftButton)) {
        const QPointF delta = event->position() - m_pressPos;
        if (!m_dragging && std::abs(delta.x()) + std::abs(delta.y()) >= 4) {
            m_dragging = true;
            setCursor(Qt::ClosedHandCursor);
        }
        if (m_dragging && m_layout) {
            TimelineMapping m = mapping();
            m.x0 = m_pressX0;
            m.x1 = m_pressX1;
            const TimelineMapping panned =
                m.pannedBy(delta.x(), 0, std::max<double>(double(m_layout->xCount()), 1.0));
            setVisibleRange(panned.x0, panned.x1);
        }
        return;
    }
    updateHover(event->position(), event->globalPosition().toPoint());
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !m_pressed) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    m_pressed = false;
    if (m_dragging) {
        m_dragging = false;
        unsetCursor();
        return;
    }
    selectAllocation(allocationAt(event->position()));
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        resetView();
    }
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    if (!m_layout) {
        QWidget::keyPressEvent(event);
        return;
    }
    const TimelineMapping m = mapping();
    const double limit = std::max<double>(double(m_layout->xCount()), 1.0);
    const double centre = m.left + m.width / 2;
    switch (event->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal: {
            const auto z = m.zoomedAt(centre, 1.5, 0, limit, kMinimumSpan);
            setVisibleRange(z.x0, z.x1);
            break;
        }
        case Qt::Key_Minus: {
            const auto z = m.zoomedAt(centre, 1 / 1.5, 0, limit, kMinimumSpan);
            setVisibleRange(z.x0, z.x1);
            break;
        }
        case Qt::Key_Left:
        case Qt::Key_Right: {
            const double dx = (event->key() == Qt::Key_Left ? 1 : -1) * m.width / 8;
            const auto p = m.pannedBy(dx, 0, limit);
            setVisibleRange(p.x0, p.x1);
            break;
        }
        case Qt::Key_Home:
        case Qt::Key_0:
            resetView();
            break;
        case Qt::Key_Escape:
            selectAllocation(-1);
            break;
        default:
            QWidget::keyPressEvent(event);
    }
}

void TimelineView::leaveEvent(QEvent* event) {
    if (m_hovered >= 0) {
        m_hovered = -1;
        update();
    }
    QWidget::leaveEvent(event);
}

void TimelineView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        update();  // every label is drawn, so a repaint retranslates
    }
    QWidget::changeEvent(event);
}

}  // namespace memscope
