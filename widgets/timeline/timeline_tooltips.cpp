#include "timeline/timeline_tooltips.h"

#include "common/byte_format.h"
#include "common/timeline_labels.h"
#include "painters/timeline_colors.h"

#include "explain/trace_summary.h"
#include "layout/timeline_layout.h"
#include "trace/trace.h"

#include <QLocale>
#include <QStringList>

namespace memscope {
QString TimelineTooltips::allocationText(const Trace* trace, const TimelineLayout* layout,
                                         int64_t allocation, int64_t x) {
    if (!trace || !layout) {
        return {};
    }
    if (allocation < 0 || allocation >= layout->allocationCount()) {
        if (x < 0 || x >= layout->xCount()) {
            return {};
        }
        const int64_t bytes = layout->summarizedAt(x);
        return tr("<b>Summarized</b><br/>%1 bytes (%2) in allocations below the detail level "
                  "at event %3<br/>%4 of %5 allocations are summarized")
            .arg(exactBytes(bytes), bytesText(bytes), QLocale().toString(qint64(x)),
                 QLocale().toString(qint64(layout->summarizedCount())),
                 QLocale().toString(qint64(layout->allocationCount())));
    }
    const Allocation& a = trace->allocations()[size_t(allocation)];
    const auto& events = trace->events;
    const int64_t event = a.event();
    const uint32_t stack = event >= 0 ? events.stack[size_t(event)] : StackTable::kEmpty;
    QStringList lines;
    lines << tr("<b>Allocation %1</b>").arg(QLocale().toString(qint64(allocation)));
    lines << tr("%1 bytes (%2)").arg(exactBytes(a.size), bytesText(a.size));
    lines << tr("Category: %1").arg(TimelineLabels::categoryName(int(a.category)));
    if (a.alloc_event >= 0) {
        lines << tr("Phase: %1, step %2")
                     .arg(TimelineLabels::phaseName(events.phase[size_t(a.alloc_event)]))
                     .arg(events.step[size_t(a.alloc_event)]);
    } else {
        lines << tr("Phase: before recording");
    }
    const QString module = QString::fromStdString(TraceSummary::moduleOf(trace->stacks, stack));
    const QString op = QString::fromStdString(TraceSummary::operatorOf(trace->stacks, stack));
    if (!module.isEmpty()) {
        lines << tr("Module: %1").arg(module.toHtmlEscaped());
    }
    if (!op.isEmpty()) {
        lines << tr("Operator: %1").arg(op.toHtmlEscaped());
    }
    const int64_t begin = layout->beginX(allocation);
    const int64_t end = layout->endX(allocation);
    auto seconds = [layout](int64_t x) {
        return QLocale().toString(double(layout->timeAt(x)) / 1e9, 'f', 4);
    };
    lines << (a.alloc_event >= 0 ? tr("Allocated at event %1, %2 s")
                                       .arg(QLocale().toString(qint64(begin)), seconds(begin))
                                 : tr("Present from the start"));
    lines << (a.free_event >= 0 && end < layout->xCount()
                  ? tr("Freed at event %1, %2 s").arg(QLocale().toString(qint64(end)), seconds(end))
                  : tr("Never freed"));
    if (begin < layout->xCount()) {
        lines << tr("Total memory after allocation: %1").arg(bytesText(layout->totalAt(begin)));
    }
    if (layout->drawnIndexOf(allocation) < 0) {
        lines << tr("(summarized at this detail)");
    }
    return lines.join(QStringLiteral("<br/>"));
}

QString TimelineTooltips::categoryText(const TimelineLayout* layout, const TimelineColors& colors,
                                       int64_t x) {
    if (!layout || x < 0 || x >= layout->xCount()) {
        return {};
    }
    const TimelineLayout::CategoryBytes bytes = layout->categoryBytesAt(x);
    QStringList lines;
    lines << tr("<b>Event %1</b>, %2 s")
                 .arg(QLocale().toString(qint64(x)),
                      QLocale().toString(double(layout->timeAt(x)) / 1e9, 'f', 4));
    for (int c = kCategoryCount - 1; c >= 0; --c) {  // top of the stack first
        if (colors.categoryPresent(c)) {
            lines << tr("%1: %2 bytes (%3)")
                         .arg(TimelineLabels::categoryName(c), exactBytes(bytes[size_t(c)]),
                              bytesText(bytes[size_t(c)]));
        }
    }
    lines << tr("Total: %1 bytes (%2)")
                 .arg(exactBytes(layout->totalAt(x)), bytesText(layout->totalAt(x)));
    return lines.join(QStringLiteral("<br/>"));
}

}  // namespace memscope
