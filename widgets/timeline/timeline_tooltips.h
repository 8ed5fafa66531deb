#pragma once

#include <QCoreApplication>
#include <QString>

#include <cstdint>

namespace memscope {

class TimelineColors;
class TimelineLayout;
class Trace;

// The timeline's hover texts (rich text): an allocation's size, category, phase and step,
// module and operator, when it was made and freed; the summarized band at an event; and the
// bytes of each category at an event in the category-stacked plot.
class TimelineTooltips {
    Q_DECLARE_TR_FUNCTIONS(TimelineTooltips)

  public:
    // For an allocation, or for the summarized band at event x (allocation -1). Empty when
    // there is nothing there.
    static QString allocationText(const Trace* trace, const TimelineLayout* layout,
                                  int64_t allocation, int64_t x = -1);
    // Bytes per category present (top of the stack first) and the total at event x.
    static QString categoryText(const TimelineLayout* layout, const TimelineColors& colors,
                                int64_t x);
};

}  // namespace memscope
