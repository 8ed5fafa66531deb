#pragma once

#include "run/phase.h"
#include "trace/category.h"

#include <QColor>
#include <QCoreApplication>
#include <QString>
#include <QVector>

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace memscope {

class RunIndexes;
class StackAttribution;
class TimelineLayout;
class Trace;

// One legend entry: a name and its colour.
struct TimelineLegendEntry {
    QString name;
    QColor color;
};

// The timeline's colours: the fixed ones (categories, phases, the summarized band, the total,
// the peak, the capacity line, the wash over a zoomed-out column's range) and, for a trace, a
// palette index per allocation in the chosen scheme with the legend groups it makes. Each
// group has four shades that tell neighbouring allocations apart; narrow allocations merge per
// group. Computed when the scheme or the trace changes (module groups: one stack walk per
// distinct stack).
class TimelineColors {
    Q_DECLARE_TR_FUNCTIONS(TimelineColors)

  public:
    // In TimelineView::ColorMode's order.
    enum class Scheme { Allocation, Category, Module, Phase };

    // Recomputes everything for a trace and its layout (nullptr: none) in `scheme`. The module
    // scheme names allocations from `indexes` when they are the trace's (RunDocument's, built
    // once per trace), else by walking each distinct stack.
    void rebuild(const Trace* trace, const TimelineLayout* layout, Scheme scheme,
                 const RunIndexes* indexes = nullptr);
    // The same for a live run's next snapshot, whose layout was extended
    // (TimelineLayout::extend) from the state these colours were computed for or one before it:
    // colours only the allocations the extension added or revisited, unless the groups change
    // (by phase: a phase with no allocation before): then it rebuilds. Returns false when it did.
    bool extend(const Trace* trace, const TimelineLayout* layout);

    // Whether any allocation of the run has category c.
    bool categoryPresent(int c) const {
        return c >= 0 && c < kCategoryCount && m_categoryPresent[size_t(c)];
    }
    // Palette index of allocation a, its colour, and the palette index its merged sub-pixel
    // runs take (its group's base colour; by allocation its own).
    int paletteIndexOf(int64_t a) const { return m_colorOf[size_t(a)]; }
    const QColor& paletteColor(int index) const { return m_palette[size_t(index)]; }
    int groupOf(int index) const { return m_groupOf[size_t(index)]; }
    int mergedIndexOf(int index) const {
        return m_scheme == Scheme::Allocation ? index : groupOf(index) * 4;
    }
    // The fill of allocation a, or an invalid colour outside the run.
    QColor allocationColor(int64_t a) const;
    // The colour groups, in legend order (by category: one per category, present or not).
    const QVector<TimelineLegendEntry>& groups() const { return m_groups; }
    // The legend: the categories present when `categories` (the category-stacked plot), else
    // the groups then the summarized band when the layout has one.
    QVector<TimelineLegendEntry> legend(const TimelineLayout* layout, bool categories) const;

    static QColor categoryColor(int category);
    // Background and label colour of a phase's band.
    static QColor phaseBackground(int phase);
    static QColor phaseText(int phase);
    static QColor band();
    static QColor total();
    static QColor peak();
    static QColor capacity();
    // The end-of-step floor ticks (TimelineStepPainter::paintStepFloors).
    static QColor stepFloor();
    // Washed over a zoomed-out column between its lowest and highest total, and how that looks
    // over the band (its legend colour).
    static QColor rangeWash();
    static QColor rangeLegend();

  private:
    int addGroup(const QString& name, const QColor& base);
    int phaseOf(const Trace* trace, int64_t a) const;
    // m_colorOf[a] in the scheme, from the groups made so far (module groups as they come).
    void colorAllocation(const Trace* trace, int64_t a,
                         const StackAttribution* attribution = nullptr);

    Scheme m_scheme = Scheme::Category;
    std::array<bool, kCategoryCount> m_categoryPresent{};
    std::array<int64_t, kCategoryCount> m_categoryCount{};
    std::vector<uint8_t> m_categoryOf;  // category index per allocation, as last coloured
    std::array<int, kCategoryCount> m_groupOfCategory{};
    std::array<int, kPhaseCount> m_groupOfPhase{};  // -1: the phase has no group
    std::unordered_map<uint32_t, int> m_groupOfStack;
    std::map<std::string, int> m_groupOfName;
    int m_otherGroup = -1;
    std::vector<uint16_t> m_colorOf;
    std::vector<QColor> m_palette;
    std::vector<uint16_t> m_groupOf;
    QVector<TimelineLegendEntry> m_groups;
};

}  // namespace memscope
