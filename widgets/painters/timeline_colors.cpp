#include "painters/timeline_colors.h"

#include "common/timeline_labels.h"

#include "run_indexes.h"

#include "explain/trace_summary.h"
#include "layout/timeline_layout.h"
#include "trace/trace.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <unordered_map>

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
    0x1F9E89,  // Communication
    0x9C755F,  // BeforeRecording (imports: alive before the trace began)
};
constexpr QRgb k_band_rgb = 0xC5CBD3;
constexpr QRgb k_total_rgb = 0x2B2F36;
// Over the part of a pixel column's envelope that is not live throughout the column (between
// the lowest and the highest total of its x's): everything there is washed this light.
constexpr QRgb k_range_wash_argb = 0xA8FFFFFF;
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

}  // namespace

int TimelineColors::addGroup(const QString& name, const QColor& base) {
    const auto group = uint16_t(m_groups.size());
    m_groups.push_back({name, base});
    for (int k = 0; k < 4; ++k) {
        m_palette.push_back(shadeOf(base, k));
        m_groupOf.push_back(group);
    }
    return int(group);
}

void TimelineColors::rebuild(const Trace* trace, const TimelineLayout* layout, Scheme scheme,
                             const RunIndexes* indexes) {
    const StackAttribution* attribution =
        indexes && &indexes->trace() == trace ? &indexes->attribution() : nullptr;
    m_scheme = scheme;
    m_categoryPresent.fill(false);
    m_categoryCount.fill(0);
    m_categoryOf.clear();
    m_colorOf.clear();
    m_palette.clear();
    m_groupOf.clear();
    m_groups.clear();
    m_groupOfCategory.fill(0);
    m_groupOfPhase.fill(0);
    m_groupOfStack.clear();
    m_groupOfName.clear();
    m_otherGroup = -1;
    const int64_t count = layout ? layout->allocationCount() : 0;
    m_categoryOf.resize(size_t(count));
    for (int64_t a = 0; a < count; ++a) {
        const auto c = categoryIndex(int(layout->categoryOf(a)));
        m_categoryOf[size_t(a)] = uint8_t(c);
        ++m_categoryCount[c];
    }
    for (size_t c = 0; c < size_t(kCategoryCount); ++c) {
        m_categoryPresent[c] = m_categoryCount[c] > 0;
    }
    if (!layout) {
        return;
    }
    m_colorOf.resize(size_t(count));
    switch (scheme) {
        case Scheme::Category:
            // A group per category, present or not (the legend lists the present ones), so
            // that a category appearing or going in a live run changes no allocation's colour.
            for (int c = 0; c < kCategoryCount; ++c) {
                m_groupOfCategory[size_t(c)] =
                    addGroup(TimelineLabels::categoryName(c), categoryColor(c));
            }
            break;
        case Scheme::Phase: {
            std::array<bool, kPhaseCount> present{};
            for (int64_t a = 0; a < count; ++a) {
                present[size_t(phaseOf(trace, a))] = true;
            }
            for (int p = 0; p < kPhaseCount; ++p) {
                m_groupOfPhase[size_t(p)] = present[size_t(p)]
                                                ? addGroup(TimelineLabels::phaseName(p),
                                                           QColor::fromRgb(k_phase_fill_rgb[p]))
                                                : -1;
            }
            break;
        }
        case Scheme::Module:
            break;  // groups as their first allocation comes, below
        case Scheme::Allocation:
            // One group (narrow ones merge whatever their hue), hues spread by the golden
            // ratio so that neighbours in the stack differ.
            m_groups.push_back(
                {tr("Each allocation its own colour"), QColor::fromHsvF(0.6, 0.5, 0.85)});
            for (int k = 0; k < k_allocation_hues; ++k) {
                const double hue = std::fmod(k * 0.6180339887, 1.0);
                m_palette.push_back(QColor::fromHsvF(hue, k % 2 ? 0.45 : 0.6, k % 3 ? 0.88 : 0.78));
                m_groupOf.push_back(0);
            }
            break;
    }
    for (int64_t a = 0; a < count; ++a) {
        colorAllocation(trace, a, attribution);
    }
    if (m_palette.empty()) {  // no allocations: keep index 0 valid
        addGroup(TimelineLabels::categoryName(int(Category::Unknown)),
                 categoryColor(int(Category::Unknown)));
    }
}

bool TimelineColors::extend(const Trace* trace, const TimelineLayout* layout) {
    const int64_t old_count = int64_t(m_colorOf.size());
    const int64_t first = layout ? layout->firstNewAllocation() : 0;
    const int64_t count = layout ? layout->allocationCount() : 0;
    if (!trace || !layout || first <= 0 || first > old_count || count < old_count) {
        rebuild(trace, layout, m_scheme);
        return false;
    }
    // Which categories are present (the legend lists them), counted again for the allocations
    // that may have changed.
    auto counts = m_categoryCount;
    auto recount = [&](int64_t a) {
        if (a < old_count) {
            --counts[m_categoryOf[size_t(a)]];
        }
        ++counts[categoryIndex(int(layout->categoryOf(a)))];
    };
    for (const int32_t a : layout->revisitedAllocations()) {
        recount(a);
    }
    for (int64_t a = first; a < count; ++a) {
        recount(a);
    }
    // Category groups do not depend on which categories are present: only the phase scheme's
    // groups can change here (a phase with no allocation so far).
    bool same = true;
    if (m_scheme == Scheme::Phase) {
        for (int64_t a = std::max(first, old_count); a < count && same; ++a) {
            same = m_groupOfPhase[size_t(phaseOf(trace, a))] >= 0;
        }
    }
    if (!same) {
        rebuild(trace, layout, m_scheme);
        return false;
    }
    m_categoryCount = counts;
    for (size_t c = 0; c < size_t(kCategoryCount); ++c) {
        m_categoryPresent[c] = counts[c] > 0;
    }
    m_categoryOf.resize(size_t(count));
    m_colorOf.resize(size_t(count));
    auto recolor = [&](int64_t a) {
        m_categoryOf[size_t(a)] = uint8_t(categoryIndex(int(layout->categoryOf(a))));
        colorAllocation(trace, a);
    };
    for (const int32_t a : layout->revisitedAllocations()) {
        recolor(a);
    }
    for (int64_t a = first; a < count; ++a) {
        recolor(a);
    }
    return true;
}

int TimelineColors::phaseOf(const Trace* trace, int64_t a) const {
    if (!trace || size_t(a) >= trace->allocations().size()) {
        return int(Phase::Other);
    }
    const int64_t e = trace->allocations().records()[size_t(a)].alloc_event;
    return e >= 0 ? std::clamp(int(trace->events.phase[size_t(e)]), 0, kPhaseCount - 1)
                  : int(Phase::Init);
}

void TimelineColors::colorAllocation(const Trace* trace, int64_t a,
                                     const StackAttribution* attribution) {
    uint16_t& color = m_colorOf[size_t(a)];
    switch (m_scheme) {
        case Scheme::Category:
            color = uint16_t(m_groupOfCategory[m_categoryOf[size_t(a)]] * 4 + (a & 3));
            return;
        case Scheme::Phase:
            color = uint16_t(m_groupOfPhase[size_t(phaseOf(trace, a))] * 4 + (a & 3));
            return;
        case Scheme::Allocation:
            color = uint16_t(a % k_allocation_hues);
            return;
        case Scheme::Module:
            break;
    }
    // Module: per stack node its group, so each distinct stack is walked once.
    const AllocationRecord* alloc = trace && size_t(a) < trace->allocations().size()
                                        ? &trace->allocations().records()[size_t(a)]
                                        : nullptr;
    const int64_t e = alloc ? alloc->event() : -1;
    const uint32_t stack = e >= 0 ? trace->events.stack[size_t(e)] : StackTable::kEmpty;
    const int phase = phaseOf(trace, a);
    const bool optimizer = phase == int(Phase::Optimizer);
    const bool init_without_module = stack == StackTable::kEmpty && phase == int(Phase::Init);
    // The optimizer's allocations have no module of their own; neither have the parameters
    // made before any module ran.
    const uint32_t key = optimizer ? 0xFFFFFFFEu : init_without_module ? 0xFFFFFFFDu : stack;
    auto it = m_groupOfStack.find(key);
    if (it == m_groupOfStack.end()) {
        std::string name = optimizer ? std::string("optimizer")
                           : attribution
                               ? moduleGroup(attribution->moduleOf(stack))
                               : moduleGroup(TraceSummary::moduleOf(trace->stacks, stack));
        const bool init_group = name.empty() && phase == int(Phase::Init);
        if (init_group) {
            name = std::string(1, '\x01');  // its own group, named below
        }
        int group = 0;
        auto named = m_groupOfName.find(name);
        if (named != m_groupOfName.end()) {
            group = named->second;
        } else if (m_groups.size() + 1 < k_module_colors) {
            const QString label = init_group     ? tr("initialisation (no module)")
                                  : name.empty() ? tr("(no module)")
                                                 : QString::fromStdString(name);
            group = addGroup(label, QColor::fromRgb(k_module_rgb[m_groups.size()]));
            m_groupOfName.emplace(name, group);
        } else {
            if (m_otherGroup < 0) {
                m_otherGroup = addGroup(tr("other modules"),
                                        QColor::fromRgb(k_module_rgb[k_module_colors - 1]));
            }
            group = m_otherGroup;
            m_groupOfName.emplace(name, group);
        }
        it = m_groupOfStack.emplace(key, group).first;
    }
    color = uint16_t(it->second * 4 + (a & 3));
}

QColor TimelineColors::allocationColor(int64_t a) const {
    if (a < 0 || size_t(a) >= m_colorOf.size()) {
        return {};
    }
    return m_palette[m_colorOf[size_t(a)]];
}

QVector<TimelineLegendEntry> TimelineColors::legend(const TimelineLayout* layout,
                                                    bool categories) const {
    QVector<TimelineLegendEntry> out;
    if (!layout) {
        return out;
    }
    if (categories) {
        for (int c = 0; c < kCategoryCount; ++c) {
            if (m_categoryPresent[size_t(c)]) {
                out.push_back({TimelineLabels::categoryName(c), categoryColor(c)});
            }
        }
        return out;
    }
    for (int g = 0; g < m_groups.size(); ++g) {
        // By category, a group per category: the legend names those present.
        if (m_scheme != Scheme::Category || m_categoryPresent[size_t(g)]) {
            out.push_back(m_groups[g]);
        }
    }
    if (layout->summarizedCount() > 0) {
        out.push_back({tr("Summarized (%1 smaller allocations)")
                           .arg(QLocale().toString(qint64(layout->summarizedCount()))),
                       QColor::fromRgb(k_band_rgb)});
    }
    return out;
}

QColor TimelineColors::categoryColor(int category) {
    return QColor::fromRgb(k_category_rgb[categoryIndex(category)]);
}

QColor TimelineColors::phaseBackground(int phase) {
    return QColor::fromRgb(k_phase_rgb[std::clamp(phase, 0, kPhaseCount - 1)]);
}

QColor TimelineColors::phaseText(int phase) {
    return QColor::fromRgb(k_phase_text_rgb[std::clamp(phase, 0, kPhaseCount - 1)]);
}

QColor TimelineColors::band() {
    return QColor::fromRgb(k_band_rgb);
}

QColor TimelineColors::total() {
    return QColor::fromRgb(k_total_rgb);
}

QColor TimelineColors::stepFloor() {
    return QColor(150, 40, 120);
}

QColor TimelineColors::peak() {
    return QColor::fromRgb(k_peak_rgb);
}

QColor TimelineColors::capacity() {
    return QColor::fromRgb(k_capacity_rgb);
}

QColor TimelineColors::rangeWash() {
    return QColor::fromRgba(k_range_wash_argb);
}

QColor TimelineColors::rangeLegend() {
    const QColor wash = rangeWash();
    const QColor under = band();
    const double a = wash.alphaF();
    return QColor::fromRgbF(float(under.redF() * (1 - a) + wash.redF() * a),
                            float(under.greenF() * (1 - a) + wash.greenF() * a),
                            float(under.blueF() * (1 - a) + wash.blueF() * a));
}

}  // namespace memscope
