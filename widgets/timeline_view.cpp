#include "timeline_view.h"

#include "byte_format.h"

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
#include <map>
#include <string>
#include <unordered_map>
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
// Over the part of a pixel column's envelope that is not live throughout the column (between
// the lowest and the highest total of its x's): everything there is washed this light.
constexpr QRgb k_range_wash_argb = 0xA8FFFFFF;
// Lines, bands and outlines closer than this many pixels are thinned out.
constexpr double k_min_line_gap = 4;
constexpr QRgb k_peak_rgb = 0xC62828;
// Background of each Phase (Init, Forward, Backward, Optimizer, Other): light enough to sit
// behind the allocations, distinct enough to read the phases.
constexpr QRgb k_phase_rgb[kPhaseCount] = {0xF1F1F1, 0xE6EEF9, 0xFBEBDD, 0xE4F2E0, 0xF4F4F4};
constexpr QRgb k_phase_text_rgb[kPhaseCount] = {0x777777, 0x3A6AA8, 0xB0652A, 0x4C8A3F, 0x777777};
// Allocation fills when coloured by phase (Init, Forward, Backward, Optimizer, Other).
constexpr QRgb k_phase_fill_rgb[kPhaseCount] = {0x9C755F, 0x4E79A7, 0xF28E2B, 0x59A14F, 0xBAB0AC};
// Module groups in order of first appearance; more than these share the last, "other" colour.
constexpr QRgb k_module_rgb[] = {0x4E79A7, 0xF28E2B, 0xE15759, 0x76B7B2, 0x59A14F, 0xEDC948,
                                 0xB07AA1, 0xFF9DA7, 0x9C755F, 0x1F77B4, 0xD62728, 0x2CA02C,
                                 0x9467BD, 0x8C564B, 0xE377C2, 0x17BECF, 0xBCBD22, 0xAEC7E8,
                                 0xFFBB78, 0x98DF8A, 0xBAB0AC};
constexpr int k_module_colors = int(sizeof(k_module_rgb) / sizeof(k_module_rgb[0]));
// By allocation: this many hues, consecutive allocations far apart on the colour wheel.
constexpr int k_allocation_hues = 48;
constexpr QRgb k_capacity_rgb = 0xB71C1C;

// Margins around the plot, in pixels.
constexpr double k_left = 76;
constexpr double k_right = 18;
constexpr double k_header = 50;  // title and legend
constexpr double k_strip = 30;   // step labels and phase names above the plot
constexpr double k_bottom = 46;  // tick labels, axis title, detail

// The four shades of a base colour that tell neighbouring allocations apart.
QColor shadeOf(const QColor& base, int k) {
    switch (k & 3) {
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

// The top-level module group of a module path: "TinyLlama.blocks.3.attention.wq" is
// "blocks.3", "TinyLlama.embedding" is "embedding"; a backward frame ("backward of X") counts as
// X. The root module itself stays as it is.
std::string moduleGroup(std::string name) {
    static const std::string backward_of = "backward of ";
    if (name.rfind(backward_of, 0) == 0) {
        name.erase(0, backward_of.size());
    }
    std::vector<std::string> parts;
    size_t from = 0;
    while (true) {
        const size_t dot = name.find('.', from);
        parts.push_back(
            name.substr(from, dot == std::string::npos ? std::string::npos : dot - from));
        if (dot == std::string::npos) {
            break;
        }
        from = dot + 1;
    }
    if (parts.size() < 2) {
        return name;
    }
    std::string group = parts[1];
    const bool numbered =
        parts.size() > 2 && !parts[2].empty() &&
        std::all_of(parts[2].begin(), parts[2].end(), [](char c) { return c >= '0' && c <= '9'; });
    if (numbered) {
        group += "." + parts[2];
    }
    return group;
}

QString exactBytes(int64_t bytes) {
    return QLocale().toString(qint64(bytes));
}

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

// The x's pixel column c (counted from the plot's left edge) shows when many share a column:
// every x whose extent overlaps it, so that on the time axis an x wider than a column is seen
// in each column it covers. Only for windows of more x than columns.
std::pair<int64_t, int64_t> columnRange(const TimelineMapping& m, int c, int64_t x0, int64_t x1) {
    const int64_t lo = std::clamp(int64_t(std::floor(m.pixelToX(m.left + c))), x0, x1);
    const int64_t hi =
        std::clamp(std::max(lo + 1, int64_t(std::ceil(m.pixelToX(m.left + c + 1)))), x0, x1);
    return {lo, hi};
}

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
    m_hoverPx = -1;
    m_banding = false;
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
    m_ooms.clear();
    if (m_layout) {
        for (int64_t a = 0; a < m_layout->allocationCount(); ++a) {
            m_categoryPresent[size_t(m_layout->categoryOf(a)) % m_categoryPresent.size()] = true;
        }
    }
    if (m_layout && m_trace) {
        const auto& events = m_trace->events;
        for (size_t i = 0; i < events.count(); ++i) {
            if (static_cast<EventKind>(events.kind[i]) != EventKind::Oom) {
                continue;
            }
            // Its place on the x axis: after the alloc/free events before it.
            int64_t lo = 0;
            int64_t hi = m_layout->xCount();
            while (lo < hi) {
                const int64_t mid = (lo + hi) / 2;
                if (m_layout->eventAt(mid) < int64_t(i)) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            m_ooms.push_back({lo, std::abs(events.size[i]), events.allocated[i]});
        }
    }
    rebuildColors();
    invalidateChart();
}

void TimelineView::rebuildColors() {
    m_colorOf.clear();
    m_palette.clear();
    m_groupOf.clear();
    m_groups.clear();
    if (!m_layout) {
        return;
    }
    const int64_t count = m_layout->allocationCount();
    m_colorOf.resize(size_t(count));
    auto addGroup = [this](const QString& name, const QColor& base) {
        const auto group = uint16_t(m_groups.size());
        m_groups.push_back({name, base});
        for (int k = 0; k < 4; ++k) {
            m_palette.push_back(shadeOf(base, k));
            m_groupOf.push_back(group);
        }
        return int(group);
    };
    const std::vector<Allocation>* allocations = m_trace ? &m_trace->allocations() : nullptr;
    auto phaseOf = [&](int64_t a) {
        if (!allocations || size_t(a) >= allocations->size()) {
            return int(Phase::Other);
        }
        const int64_t e = (*allocations)[size_t(a)].alloc_event;
        return e >= 0 ? std::clamp(int(m_trace->events.phase[size_t(e)]), 0, kPhaseCount - 1)
                      : int(Phase::Init);
    };
    switch (m_colorMode) {
        case ColorMode::Category: {
            int group_of_category[kCategoryCount];
            for (int c = 0; c < kCategoryCount; ++c) {
                group_of_category[c] =
                    m_categoryPresent[size_t(c)] ? addGroup(categoryName(c), categoryColor(c)) : 0;
            }
            for (int64_t a = 0; a < count; ++a) {
                const int c = std::clamp(int(m_layout->categoryOf(a)), 0, kCategoryCount - 1);
                m_colorOf[size_t(a)] = uint16_t(group_of_category[c] * 4 + (a & 3));
            }
            break;
        }
        case ColorMode::Phase: {
            int group_of_phase[kPhaseCount];
            std::array<bool, kPhaseCount> present{};
            for (int64_t a = 0; a < count; ++a) {
                present[size_t(phaseOf(a))] = true;
            }
            for (int p = 0; p < kPhaseCount; ++p) {
                group_of_phase[p] =
                    present[size_t(p)]
                        ? addGroup(phaseName(p), QColor::fromRgb(k_phase_fill_rgb[p]))
                        : 0;
            }
            for (int64_t a = 0; a < count; ++a) {
                m_colorOf[size_t(a)] = uint16_t(group_of_phase[phaseOf(a)] * 4 + (a & 3));
            }
            break;
        }
        case ColorMode::Module: {
            // Per stack node its group, so each distinct stack is walked once.
            std::unordered_map<uint32_t, int> group_of_stack;
            std::map<std::string, int> group_of_name;
            int other = -1;
            for (int64_t a = 0; a < count; ++a) {
                const Allocation* alloc = allocations ? &(*allocations)[size_t(a)] : nullptr;
                const int64_t e =
                    alloc ? (alloc->alloc_event >= 0 ? alloc->alloc_event : alloc->free_event) : -1;
                const uint32_t stack =
                    e >= 0 ? m_trace->events.stack[size_t(e)] : StackTable::kEmpty;
                const int phase = phaseOf(a);
                const bool optimizer = phase == int(Phase::Optimizer);
                const bool init_without_module =
                    stack == StackTable::kEmpty && phase == int(Phase::Init);
                // The optimizer's allocations have no module of their own; neither have the
                // parameters made before any module ran.
                const uint32_t key = optimizer             ? 0xFFFFFFFEu
                                     : init_without_module ? 0xFFFFFFFDu
                                                           : stack;
                auto it = group_of_stack.find(key);
                if (it == group_of_stack.end()) {
                    std::string name =
                        optimizer ? std::string("optimizer")
                                  : moduleGroup(TraceSummary::moduleOf(m_trace->stacks, stack));
                    const bool init_group = name.empty() && phase == int(Phase::Init);
                    if (init_group) {
                        name = std::string(1, '\x01');  // its own group, named below
                    }
                    int group = 0;
                    auto named = group_of_name.find(name);
                    if (named != group_of_name.end()) {
                        group = named->second;
                    } else if (m_groups.size() + 1 < k_module_colors) {
                        const QString label = init_group     ? tr("initialisation (no module)")
                                              : name.empty() ? tr("(no module)")
                                                             : QString::fromStdString(name);
                        group = addGroup(label, QColor::fromRgb(k_module_rgb[m_groups.size()]));
                        group_of_name.emplace(name, group);
                    } else {
                        if (other < 0) {
                            other = addGroup(tr("other modules"),
                                             QColor::fromRgb(k_module_rgb[k_module_colors - 1]));
                        }
                        group = other;
                        group_of_name.emplace(name, group);
                    }
                    it = group_of_stack.emplace(key, group).first;
                }
                m_colorOf[size_t(a)] = uint16_t(it->second * 4 + (a & 3));
            }
            break;
        }
        case ColorMode::Allocation: {
            // One group (narrow ones merge whatever their hue), hues spread by the golden
            // ratio so that neighbours in the stack differ.
            m_groups.push_back(
                {tr("Each allocation its own colour"), QColor::fromHsvF(0.6, 0.5, 0.85)});
            for (int k = 0; k < k_allocation_hues; ++k) {
                const double hue = std::fmod(k * 0.6180339887, 1.0);
                m_palette.push_back(QColor::fromHsvF(hue, k % 2 ? 0.45 : 0.6, k % 3 ? 0.88 : 0.78));
                m_groupOf.push_back(0);
            }
            for (int64_t a = 0; a < count; ++a) {
                m_colorOf[size_t(a)] = uint16_t(a % k_allocation_hues);
            }
            break;
        }
    }
    if (m_palette.empty()) {  // no allocations: keep index 0 valid
        addGroup(categoryName(int(Category::Unknown)), categoryColor(int(Category::Unknown)));
    }
}

void TimelineView::invalidateChart() {
    ++m_generation;
    update();
}

void TimelineView::setColorMode(ColorMode mode) {
    if (mode == m_colorMode) {
        return;
    }
    m_colorMode = mode;
    rebuildColors();
    invalidateChart();
    emit colorModeChanged(mode);
}

QColor TimelineView::allocationColor(int64_t a) const {
    if (a < 0 || size_t(a) >= m_colorOf.size()) {
        return {};
    }
    return m_palette[m_colorOf[size_t(a)]];
}

QVector<TimelineView::LegendEntry> TimelineView::legend() const {
    QVector<LegendEntry> out;
    if (!m_layout) {
        return out;
    }
    if (m_plotMode == PlotMode::Categories) {
        for (int c = 0; c < kCategoryCount; ++c) {
            if (m_categoryPresent[size_t(c)]) {
                out.push_back({categoryName(c), categoryColor(c)});
            }
        }
        return out;
    }
    out = m_groups;
    if (m_layout->summarizedCount() > 0) {
        out.push_back({tr("Summarized (%1 smaller allocations)")
                           .arg(QLocale().toString(qint64(m_layout->summarizedCount()))),
                       QColor::fromRgb(k_band_rgb)});
    }
    return out;
}

void TimelineView::setPlotMode(PlotMode mode) {
    if (mode == m_plotMode) {
        return;
    }
    m_plotMode = mode;
    m_hovered = -1;
    invalidateChart();
    emit plotModeChanged(mode);
}

void TimelineView::setTimeAxis(bool on) {
    if (on == m_timeAxis) {
        return;
    }
    m_timeAxis = on;
    invalidateChart();
    emit timeAxisChanged(on);
}

void TimelineView::setHighlightedAllocations(const QVector<qint64>& allocations) {
    std::vector<int64_t> sorted(allocations.begin(), allocations.end());
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    if (sorted == m_highlighted) {
        return;
    }
    m_highlighted = std::move(sorted);
    invalidateChart();
}

QVector<qint64> TimelineView::highlightedAllocations() const {
    return QVector<qint64>(m_highlighted.begin(), m_highlighted.end());
}

void TimelineView::setPlaceholderText(const QString& text) {
    m_placeholder = text;
    invalidateChart();
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
    invalidateChart();
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
    int64_t visible_max =
        m_layout ? m_layout->maxTotal(int64_t(std::floor(m_x0)), int64_t(std::ceil(m_x1))) : 0;
    if (m_trace && m_trace->meta.capacity_bytes > 0) {
        visible_max = std::max(visible_max, m_trace->meta.capacity_bytes);
    }
    m.ymax = TimelineMapping::niceByteTop(double(visible_max), std::max(2, int(m.height / 70)));
    if (m_timeAxis && m_layout && m_layout->xCount() > 0) {
        m = m.withTimeAxis(m_layout->times().data(), m_layout->xCount(), m_layout->endTime());
    }
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
    auto seconds = [this](int64_t x) {
        return QLocale().toString(double(m_layout->timeAt(x)) / 1e9, 'f', 4);
    };
    lines << (a.alloc_event >= 0 ? tr("Allocated at event %1, %2 s")
                                       .arg(QLocale().toString(qint64(begin)), seconds(begin))
                                 : tr("Present from the start"));
    lines << (a.free_event >= 0 && end < m_layout->xCount()
                  ? tr("Freed at event %1, %2 s").arg(QLocale().toString(qint64(end)), seconds(end))
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
    paintAll(painter, area, true);
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
    const QRectF area(rect());
    if (!m_layout) {
        paintAll(painter, area);
        return;
    }
    // The chart is redrawn only when what it shows changed; hover and selection outlines and
    // the rubber band are painted over the kept image.
    const qreal dpr = devicePixelRatioF();
    const QSize pixels(int(std::ceil(width() * dpr)), int(std::ceil(height() * dpr)));
    m_lastPaintCached = m_chart.size() == pixels && m_chart.devicePixelRatio() == dpr &&
                        m_chartGeneration == m_generation && m_chartX0 == m_x0 && m_chartX1 == m_x1;
    if (!m_lastPaintCached) {
        m_chart = QImage(pixels, QImage::Format_ARGB32_Premultiplied);
        m_chart.setDevicePixelRatio(dpr);
        m_chart.fill(Qt::white);
        QPainter chart(&m_chart);
        chart.setFont(font());
        paintAll(chart, area, false);
        m_chartGeneration = m_generation;
        m_chartX0 = m_x0;
        m_chartX1 = m_x1;
    }
    painter.drawImage(QPointF(0, 0), m_chart);
    const TimelineMapping m = mapping(area);
    painter.save();
    painter.setClipRect(QRectF(m.left, m.top, m.width, m.height).adjusted(0, 0, 1, 1));
    paintOverlays(painter, m);
    painter.restore();
}

void TimelineView::paintOverlays(QPainter& painter, const TimelineMapping& m) {
    if (m_plotMode == PlotMode::Allocations) {
        if (m_selected >= 0) {
            paintHighlight(painter, m, m_selected, true);
        }
        if (m_hovered >= 0 && m_hovered != m_selected) {
            paintHighlight(painter, m, m_hovered, false);
        }
    } else if (m_hoverPx >= m.left && m_hoverPx <= m.left + m.width) {
        painter.setPen(QPen(QColor(20, 20, 20, 160), 0));
        const double x = std::round(m_hoverPx) + 0.5;
        painter.drawLine(QPointF(x, m.top), QPointF(x, m.top + m.height));
    }
    if (m_banding) {
        const double lo = std::clamp(std::min(m_bandFrom, m_bandTo), m.left, m.left + m.width);
        const double hi = std::clamp(std::max(m_bandFrom, m_bandTo), m.left, m.left + m.width);
        painter.setPen(QPen(QColor(30, 90, 200), 1));
        painter.setBrush(QColor(30, 90, 200, 45));
        painter.drawRect(QRectF(QPointF(lo, m.top), QPointF(hi, m.top + m.height)));
    }
}

void TimelineView::paintAll(QPainter& painter, const QRectF& area, bool overlays) {
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
    // Zoomed out (more x than pixel columns), each column shows the envelope of memory over
    // the x's it covers: filled up to the lowest total, washed lighter from there to the
    // highest. Every layer keeps inside it.
    const std::vector<ColumnEnvelope> envelope = columnEnvelopes(m);
    paintHeader(painter, area, !envelope.empty());

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
    if (m_plotMode == PlotMode::Categories) {
        paintCategoryStack(painter, m);
    } else {
        paintEnvelopeBase(painter, m, envelope);
        paintBandAndTotal(painter, m);
        paintAllocations(painter, m);
    }
    paintEnvelopeRange(painter, m, envelope);
    if (m_plotMode == PlotMode::Allocations) {
        paintHighlighted(painter, m);
    }
    paintTotalLine(painter, m, envelope);
    paintStepLines(painter, m);
    paintCapacityAndOom(painter, m);
    if (overlays) {
        paintOverlays(painter, m);
    }
    painter.restore();

    painter.setPen(QPen(QColor(0, 0, 0, 90), 0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(plot);
    paintPeak(painter, m);
    paintAxes(painter, m, area);
    m_stats.milliseconds = double(timer.nsecsElapsed()) / 1e6;
}

std::vector<TimelineView::ColumnEnvelope> TimelineView::columnEnvelopes(
    const TimelineMapping& m) const {
    std::vector<ColumnEnvelope> out;
    const int64_t wx0 = std::max<int64_t>(0, int64_t(std::floor(m.x0)));
    const int64_t wx1 = std::min(m_layout->xCount(), int64_t(std::ceil(m.x1)));
    if (wx1 - wx0 <= int64_t(m.width)) {
        return out;  // an x is a pixel or wider: every layer draws each x as it is
    }
    const int columns = int(std::ceil(m.width));
    out.reserve(size_t(columns));
    for (int c = 0; c < columns; ++c) {
        const auto [lo, hi] = columnRange(m, c, wx0, wx1);
        if (lo < hi) {
            out.push_back({c, m_layout->minTotal(lo, hi), m_layout->maxTotal(lo, hi)});
        }
    }
    return out;
}

void TimelineView::paintEnvelopeBase(QPainter& painter, const TimelineMapping& m,
                                     const std::vector<ColumnEnvelope>& envelope) const {
    // What is live throughout a column, [0, lowest total), is filled in the band's colour
    // first: the drawn allocations and the band cover it, and wherever their pixel-snapped
    // shapes leave a gap this shows instead of the background.
    if (envelope.empty()) {
        return;
    }
    const double bottom = std::round(m.bytesToPixel(0));
    QVector<QRectF> rects;
    rects.reserve(qsizetype(envelope.size()));
    for (const ColumnEnvelope& e : envelope) {
        const double top = std::round(m.bytesToPixel(double(e.lo)));
        if (top >= bottom) {
            continue;
        }
        if (!rects.isEmpty() && rects.last().top() == top &&
            rects.last().right() == m.left + e.column) {
            rects.last().setRight(m.left + e.column + 1);
        } else {
            rects.push_back(
                QRectF(QPointF(m.left + e.column, top), QPointF(m.left + e.column + 1, bottom)));
        }
    }
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor::fromRgb(k_band_rgb));
    painter.drawRects(rects);
    painter.setBrush(Qt::NoBrush);
}

void TimelineView::paintEnvelopeRange(QPainter& painter, const TimelineMapping& m,
                                      const std::vector<ColumnEnvelope>& envelope) const {
    // Between a column's lowest and highest total memory rose and fell within the column:
    // washed lighter over whatever is drawn there, so the solid part reads as what stayed.
    QVector<QRectF> rects;
    rects.reserve(qsizetype(envelope.size()));
    for (const ColumnEnvelope& e : envelope) {
        const double top = std::round(m.bytesToPixel(double(e.hi)));
        const double bottom = std::round(m.bytesToPixel(double(e.lo)));
        if (top < bottom) {
            rects.push_back(
                QRectF(QPointF(m.left + e.column, top), QPointF(m.left + e.column + 1, bottom)));
        }
    }
    if (rects.isEmpty()) {
        return;
    }
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor::fromRgba(k_range_wash_argb));
    painter.drawRects(rects);
    painter.setBrush(Qt::NoBrush);
}

void TimelineView::paintTotalLine(QPainter& painter, const TimelineMapping& m,
                                  const std::vector<ColumnEnvelope>& envelope) const {
    // The total on top of everything: the outline users read the peak from.
    QPolygonF line;
    if (envelope.empty()) {
        const int64_t wx0 = std::max<int64_t>(0, int64_t(std::floor(m.x0)));
        const int64_t wx1 = std::min(m_layout->xCount(), int64_t(std::ceil(m.x1)));
        for (int64_t x = wx0; x < wx1; ++x) {
            const double y = m.bytesToPixel(double(m_layout->totalAt(x)));
            line << QPointF(m.xToPixel(double(x)), y) << QPointF(m.xToPixel(double(x + 1)), y);
        }
    } else {
        // Per pixel column its highest total, on the column's first filled row, through pixel
        // centres; a step between two columns is drawn in the taller one, so that no column
        // shows the line above its own highest total.
        auto yOf = [&](const ColumnEnvelope& e) {
            return std::round(m.bytesToPixel(double(e.hi))) + 0.5;
        };
        double previous_y = 0;
        int previous_column = -2;
        for (const ColumnEnvelope& e : envelope) {
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
                    painter.setPen(QPen(QColor::fromRgb(k_total_rgb), 0));
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
    painter.setPen(QPen(QColor::fromRgb(k_total_rgb), 0));
    painter.drawPolyline(line);
}

void TimelineView::paintStepLines(QPainter& painter, const TimelineMapping& m) const {
    // Step boundaries over the data, light enough not to hide it. When steps are closer than a
    // few pixels only every k-th is drawn (k = 1, 2, 5, 10, 20, ...: steps that are multiples
    // of k), or hundreds of steps would cover every pixel column.
    if (!m_trace) {
        return;
    }
    struct Mark {
        int32_t step;
        double px;
    };
    std::vector<Mark> marks;
    int32_t previous_step = -1;
    for (const PhaseInterval& interval : m_trace->phases) {
        if (interval.step != previous_step && interval.step >= 1) {
            const double px = std::round(timeToPixel(m, interval.begin_ns));
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
        if (mark.step % every == 0 && mark.px - last >= k_min_line_gap) {
            painter.drawLine(QPointF(mark.px + 0.5, m.top),
                             QPointF(mark.px + 0.5, m.top + m.height));
            last = mark.px;
        }
    }
}

int32_t TimelineView::stepLineStride(double pixels_per_step) {
    int32_t every = 1;
    for (int32_t decade = 1; decade < (1 << 29); decade *= 10) {
        for (const int32_t multiple : {1, 2, 5}) {
            every = decade * multiple;
            if (pixels_per_step * every >= k_min_line_gap) {
                return every;
            }
        }
    }
    return every;
}

void TimelineView::paintPhases(QPainter& painter, const TimelineMapping& m,
                               const QRectF& strip) const {
    if (!m_trace) {
        return;
    }
    // Bands inside the plot (the clip keeps them there); labels go in the strip above. When
    // the phases in view average under a few pixels each, only those at least a few pixels
    // wide keep their band: hundreds of steps would otherwise stripe the plot.
    const QRectF plot(m.left, m.top, m.width, m.height);
    int64_t visible = 0;
    for (const PhaseInterval& interval : m_trace->phases) {
        const double px0 = timeToPixel(m, interval.begin_ns);
        const double px1 = timeToPixel(m, interval.end_ns);
        visible += px1 >= plot.left() && px0 <= plot.right() && px1 > px0;
    }
    const double narrowest =
        visible > 0 && plot.width() / double(visible) < k_min_line_gap ? 2 * k_min_line_gap : 0.5;
    for (const PhaseInterval& interval : m_trace->phases) {
        const double px0 = timeToPixel(m, interval.begin_ns);
        const double px1 = timeToPixel(m, interval.end_ns);
        if (px1 < plot.left() || px0 > plot.right() || px1 - px0 < narrowest) {
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
            const double px = timeToPixel(m, interval.begin_ns);
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
        const double px0 = timeToPixel(m, interval.begin_ns);
        const double px1 = timeToPixel(m, interval.end_ns);
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
        // Per pixel column the envelope: highest total down to the lowest drawn top, from the
        // layout's block trees (a column of a thousand x costs a few dozen reads).
        const int columns = int(std::ceil(m.width));
        for (int c = 0; c < columns; ++c) {
            const auto [lo, hi] = columnRange(m, c, wx0, wx1);
            if (lo >= hi) {
                continue;
            }
            const int64_t top = m_layout->maxTotal(lo, hi);
            const int64_t bottom = m_layout->minDrawnTop(lo, hi);
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
    const std::vector<QColor>& palette = m_palette;
    painter.setBrush(Qt::NoBrush);
    for (const int64_t d : m_layout->drawnIn(wx0, wx1)) {
        const int64_t a = m_layout->drawnAllocation(d);
        const int color = m_colorOf[size_t(a)];
        const int key = m_groupOf[size_t(color)];
        // Merged sub-pixel runs take their group's base colour (by allocation: the first's).
        const int merged = m_colorMode == ColorMode::Allocation ? color : key * 4;
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
            narrow.push_back({column, key, merged, float(m.bytesToPixel(double(top))),
                              float(m.bytesToPixel(double(low)))});
            continue;
        }
        const double height = double(m_layout->sizeOf(a)) * m.height / m.ymax;
        const QColor& fill = palette[size_t(color)];
        const TimelinePoint* first = m_layout->pointsBegin(d);
        const TimelinePoint* last = m_layout->pointsEnd(d);
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
            height >= 6 && px1 - px0 >= 6 && double(drops) * k_min_line_gap <= px1 - px0;
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
            painter.drawPolygon(allocationPolygon(m, d, 1.0));
        }
        ++m_stats.polygons;
    }

    painter.setPen(Qt::NoPen);
    m_stats.mergedRuns +=
        mergeSpans(narrow, columns, [&](int column, int color, float lo, float hi) {
            painter.fillRect(QRectF(m.left + column, lo, 1.0, std::max(hi - lo, 1.0f)),
                             palette[size_t(color)]);
        });
    m_stats.mergedRuns += mergeSpans(thin, rows, [&](int row, int color, float lo, float hi) {
        painter.fillRect(QRectF(lo, first_row + row, std::max(hi - lo, 1.0f), 1.0),
                         palette[size_t(color)]);
    });
}

double TimelineView::timeToPixel(const TimelineMapping& m, int64_t time_ns) const {
    if (m.timeAxis()) {
        return m.timeToPixel(double(time_ns));
    }
    return m.xToPixel(double(m_layout->xAtTime(time_ns)));
}

void TimelineView::paintCategoryStack(QPainter& painter, const TimelineMapping& m) {
    // Memory stacked by category in enum order, parameters at the bottom. Per x when an x is a
    // pixel or wider, else per pixel column its envelope (each layer's highest top in the
    // column): the layers are filled top one first, each lower one over it.
    const int64_t wx0 = std::max<int64_t>(0, int64_t(std::floor(m.x0)));
    const int64_t wx1 = std::min(m_layout->xCount(), int64_t(std::ceil(m.x1)));
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
                               m_layout->categoryStackMax(x, x + 1)});
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
                columns.push_back({m.left + c, m.left + c + 1, m_layout->categoryStackMax(x, end)});
                x = end;
            } else if (x > wx0) {
                // No event starts here (a wide x on the time axis): the last state holds.
                columns.push_back(
                    {m.left + c, m.left + c + 1, m_layout->categoryStackMax(x - 1, x)});
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
        colors[size_t(c)] = categoryColor(c);
    }
    std::array<bool, kCategoryCount> drawn{};
    for (const Column& column : columns) {
        double below = std::round(m.bytesToPixel(0));
        for (int c = 0; c < kCategoryCount; ++c) {
            if (!m_categoryPresent[size_t(c)]) {
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
    m_stats.polygons = std::count(drawn.begin(), drawn.end(), true);
}

void TimelineView::paintHighlighted(QPainter& painter, const TimelineMapping& m) const {
    if (m_highlighted.empty()) {
        return;
    }
    // Everything else dimmed, the highlighted ones drawn again over it with an outline.
    painter.fillRect(QRectF(m.left, m.top, m.width, m.height), QColor(255, 255, 255, 170));
    const int64_t wx0 = std::max<int64_t>(0, int64_t(std::floor(m.x0)));
    const int64_t wx1 = std::min(m_layout->xCount(), int64_t(std::ceil(m.x1)));
    painter.save();
    for (const int64_t a : m_highlighted) {
        if (a < 0 || a >= m_layout->allocationCount()) {
            continue;
        }
        const int64_t d = m_layout->drawnIndexOf(a);
        if (d < 0 || m_layout->beginX(a) >= wx1 || m_layout->endX(a) <= wx0) {
            continue;
        }
        QPolygonF polygon = allocationPolygon(m, d, 1.5);
        const QRectF box = polygon.boundingRect();
        if (box.width() < 2) {
            polygon = QPolygonF(QRectF(box.center().x() - 1, box.top(), 2, box.height()));
        }
        const QColor fill = allocationColor(a);
        painter.setBrush(fill);
        painter.setPen(QPen(fill.darker(170), 1.2));
        painter.drawPolygon(polygon);
    }
    painter.restore();
}

void TimelineView::paintCapacityAndOom(QPainter& painter, const TimelineMapping& m) const {
    const QFontMetricsF fm(painter.font());
    const QColor red = QColor::fromRgb(k_capacity_rgb);
    const int64_t capacity = m_trace ? m_trace->meta.capacity_bytes : 0;
    painter.save();
    if (capacity > 0) {
        const double y = std::round(m.bytesToPixel(double(capacity))) + 0.5;
        painter.setPen(QPen(red, 1.5, Qt::DashLine));
        painter.drawLine(QPointF(m.left, y), QPointF(m.left + m.width, y));
        // At the left, where memory is usually lowest (the peak label goes near the peak).
        const QString label = tr("Capacity %1").arg(humanBytes(capacity));
        const QRectF box(m.left + 6, y - 3 - fm.height(), fm.horizontalAdvance(label) + 6,
                         fm.height());
        painter.fillRect(box, QColor(255, 255, 255, 200));
        painter.setPen(red);
        painter.drawText(box, Qt::AlignCenter, label);
    }
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (const OomMark& oom : m_ooms) {
        if (oom.x < std::floor(m.x0) || oom.x > std::ceil(m.x1)) {
            continue;
        }
        const double px = std::min(m.xToPixel(double(oom.x)), m.left + m.width - 6);
        const double py = std::max(m.bytesToPixel(double(oom.in_use)), m.top + 6);
        painter.setPen(QPen(red, 3, Qt::SolidLine, Qt::RoundCap));
        painter.drawLine(QPointF(px - 6, py - 6), QPointF(px + 6, py + 6));
        painter.drawLine(QPointF(px - 6, py + 6), QPointF(px + 6, py - 6));
        const QString label = tr("Out of memory: tried %1 bytes (%2)")
                                  .arg(exactBytes(oom.requested), humanBytes(oom.requested));
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

QString TimelineView::categoryTooltipText(int64_t x) const {
    if (!m_layout || x < 0 || x >= m_layout->xCount()) {
        return {};
    }
    const TimelineLayout::CategoryBytes bytes = m_layout->categoryBytesAt(x);
    QStringList lines;
    lines << tr("<b>Event %1</b>, %2 s")
                 .arg(QLocale().toString(qint64(x)),
                      QLocale().toString(double(m_layout->timeAt(x)) / 1e9, 'f', 4));
    for (int c = kCategoryCount - 1; c >= 0; --c) {  // top of the stack first
        if (m_categoryPresent[size_t(c)]) {
            lines << tr("%1: %2 bytes (%3)")
                         .arg(categoryName(c), exactBytes(bytes[size_t(c)]),
                              humanBytes(bytes[size_t(c)]));
        }
    }
    lines << tr("Total: %1 bytes (%2)")
                 .arg(exactBytes(m_layout->totalAt(x)), humanBytes(m_layout->totalAt(x)));
    return lines.join(QStringLiteral("<br/>"));
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

    // x: event index, or wall time in s, ms or µs (the unit the tick step needs).
    auto drawXTick = [&](double px, const QString& label, double& label_end) {
        const double x = std::round(px) + 0.5;
        painter.setPen(QPen(tick_pen, 0));
        painter.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 4));
        const double w = fm.horizontalAdvance(label);
        const double left = std::clamp(x - w / 2, area.left() + 2, area.right() - w - 2);
        if (left > label_end) {
            painter.setPen(text);
            painter.drawText(QPointF(left, plot.bottom() + 6 + fm.ascent()), label);
            label_end = left + w + 6;
        }
    };
    double label_end = -1e9;
    if (m.timeAxis()) {
        const double step =
            TimelineMapping::timeTickStep(m.t1 - m.t0, std::max(2, int(m.width / 110)));
        double unit = 1e9;
        QString suffix = tr("s");
        if (step < 1e5) {
            unit = 1e3;
            suffix = tr("µs");
        } else if (step < 1e8) {
            unit = 1e6;
            suffix = tr("ms");
        }
        const int decimals = std::max(0, int(std::ceil(-std::log10(step / unit) - 1e-9)));
        for (const double tick : TimelineMapping::ticks(m.t0, m.t1, step)) {
            drawXTick(
                m.timeToPixel(tick),
                QStringLiteral("%1 %2").arg(QLocale().toString(tick / unit, 'f', decimals), suffix),
                label_end);
        }
    } else {
        const double x_step =
            TimelineMapping::indexTickStep(m.span(), std::max(2, int(m.width / 110)));
        for (const double tick : TimelineMapping::ticks(std::ceil(m.x0), m.x1, x_step)) {
            drawXTick(m.xToPixel(tick), QLocale().toString(qint64(tick)), label_end);
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
    const QString axis =
        m.timeAxis() ? tr("Wall time since the run started") : tr("Allocation and free events");
    painter.setPen(text);
    painter.drawText(QPointF(plot.center().x() - fm.horizontalAdvance(axis) / 2, baseline), axis);
    const QString detail = detailText();
    painter.setPen(QColor(90, 90, 90));
    painter.drawText(QPointF(plot.right() - fm.horizontalAdvance(detail), baseline), detail);
}

void TimelineView::paintHeader(QPainter& painter, const QRectF& area, bool envelope) const {
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
    // As many entries as fit before the total's, then how many did not.
    const QString total = tr("Total");
    QVector<LegendEntry> entries = legend();
    if (envelope) {
        // The light part of a zoomed-out column: the band's colour under the wash.
        const QColor wash = QColor::fromRgba(k_range_wash_argb);
        const QColor band = QColor::fromRgb(k_band_rgb);
        const double a = wash.alphaF();
        entries.push_back({tr("Rose and fell within a pixel column"),
                           QColor::fromRgbF(band.redF() * (1 - a) + wash.redF() * a,
                                            band.greenF() * (1 - a) + wash.greenF() * a,
                                            band.blueF() * (1 - a) + wash.blueF() * a)});
    }
    const double total_width = box + 5 + fm.horizontalAdvance(total) + 16;
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const double w = box + 5 + fm.horizontalAdvance(entries[i].name) + 16;
        const QString more = tr("+%1 more").arg(entries.size() - i);
        if (x + w + total_width + fm.horizontalAdvance(more) + 16 > area.right() &&
            i + 1 < entries.size()) {
            painter.setPen(QColor(90, 90, 90));
            painter.drawText(QPointF(x, legend_base), more);
            x += fm.horizontalAdvance(more) + 16;
            break;
        }
        entry(entries[i].name, entries[i].color, false);
    }
    entry(total, QColor::fromRgb(k_total_rgb), true);
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
    if (m_plotMode == PlotMode::Categories) {
        // A line at the cursor and the bytes of each category there.
        QString text;
        const bool inside = m_layout && plotRect(QRectF(rect())).contains(pos);
        m_hoverPx = inside ? pos.x() : -1;
        update();
        if (inside) {
            text = categoryTooltipText(int64_t(std::floor(mapping().pixelToX(pos.x()))));
        }
        if (text.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(global_pos, text, this);
        }
        return;
    }
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
    const bool band =
        event->button() == Qt::RightButton ||
        (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    if (band && m_layout) {
        // Rubber band: the release zooms to the columns it spans.
        m_banding = true;
        m_bandFrom = m_bandTo = event->position().x();
        update();
        return;
    }
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
    if (m_banding) {
        m_bandTo = event->position().x();
        update();
        return;
    }
    if (m_pressed && (event->buttons() & Qt::LeftButton)) {
        const QPointF delta = event->position() - m_pressPos;
        if (!m_dragging && std::abs(delta.x()) + std::abs(delta.y()) >= 4) {
            m_dragging = true;
            setCursor(Qt::ClosedHandCursor);
        }
        if (m_dragging && m_layout) {
            const TimelineMapping m = mapping().withWindow(m_pressX0, m_pressX1);
            const TimelineMapping panned =
                m.pannedBy(delta.x(), 0, std::max<double>(double(m_layout->xCount()), 1.0));
            setVisibleRange(panned.x0, panned.x1);
        }
        return;
    }
    updateHover(event->position(), event->globalPosition().toPoint());
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    if (m_banding) {
        m_banding = false;
        update();
        const TimelineMapping m = mapping();
        const double lo = std::clamp(std::min(m_bandFrom, m_bandTo), m.left, m.left + m.width);
        const double hi = std::clamp(std::max(m_bandFrom, m_bandTo), m.left, m.left + m.width);
        if (hi - lo >= 3) {  // a click is no band
            double x0 = m.pixelToX(lo);
            double x1 = m.pixelToX(hi);
            if (x1 - x0 < kMinimumSpan) {
                const double centre = (x0 + x1) / 2;
                x0 = centre - kMinimumSpan / 2;
                x1 = centre + kMinimumSpan / 2;
            }
            setVisibleRange(x0, x1);
        }
        return;
    }
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
    if (m_plotMode == PlotMode::Allocations) {
        selectAllocation(allocationAt(event->position()));
    }
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
    if (m_hovered >= 0 || m_hoverPx >= 0) {
        m_hovered = -1;
        m_hoverPx = -1;
        update();
    }
    QWidget::leaveEvent(event);
}

void TimelineView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        rebuildColors();    // legend names
        invalidateChart();  // every label is drawn, so a repaint retranslates
    }
    QWidget::changeEvent(event);
}

}  // namespace memscope
