#pragma once

#include "analysis/range_filter.h"

#include <QObject>
#include <QVector>

#include <memory>
#include <optional>
#include <utility>

namespace memscope {

class TimelineLayout;
class Trace;

// What the user looks at in one open run, shared by every view of it: the timeline's visible
// window (x in alloc/free event indices, as TimelineView and TimelineMinimap count), the pinned
// allocation, the highlighted allocations (an operator row's, a search's matches) and the active
// range filter (an event range [first, last), how it selects, and where it was made). Views
// follow it: each setter emits its signal only when the value changes, so a view that sets the
// state and follows it does not loop.
class RunViewState : public QObject {
    Q_OBJECT

  public:
    // Where the active filter came from (the chip says so in its tooltip).
    enum class FilterOrigin { Timeline, Minimap, CommandLine, Other };
    Q_ENUM(FilterOrigin)

    explicit RunViewState(QObject* parent = nullptr);
    ~RunViewState() override;

    // The run shown. A different run clears the selection, the highlights and the filter; a
    // newer snapshot of the run on display (`continuation`: a live run growing) keeps them.
    void setTrace(std::shared_ptr<const Trace> trace, bool continuation = false);
    std::shared_ptr<const Trace> trace() const { return m_trace; }

    double visibleX0() const { return m_x0; }
    double visibleX1() const { return m_x1; }
    qint64 selectedAllocation() const { return m_selected; }
    const QVector<qint64>& highlightedAllocations() const { return m_highlighted; }

    const std::optional<RangeFilter>& filter() const { return m_filter; }
    bool hasFilter() const { return m_filter.has_value(); }
    FilterOrigin filterOrigin() const { return m_origin; }
    // The allocations the filter selects, ascending (empty without a filter); computed once per
    // filter.
    const std::vector<int64_t>& filteredAllocations() const;

    // The event range [first, last) that the timeline's alloc/free x's [x0, x1) cover (the state
    // on [k, k + 1) holds from the k-th alloc/free event to just before the next; past the last
    // x, to event_count), at least one event.
    static std::pair<int64_t, int64_t> eventRangeOfX(const TimelineLayout& layout,
                                                     int64_t event_count, double x0, double x1);
    // The first x whose alloc/free event is at or after `event` (xCount() when none).
    static double xOfEvent(const TimelineLayout& layout, int64_t event);
    // Sets the filter to the events under x's [x0, x1) of `layout`, keeping the current mode
    // (alive in by default).
    void setFilterFromX(const TimelineLayout& layout, double x0, double x1,
                        memscope::RunViewState::FilterOrigin origin);

  public slots:
    void setVisibleRange(double x0, double x1);
    void setSelectedAllocation(qint64 allocation);
    void setHighlightedAllocations(const QVector<qint64>& allocations);
    // Filters every view to the allocations alive in (or made in) events [first, last), clamped
    // to the run; an empty range clears the filter.
    void setFilter(const memscope::RangeFilter& filter,
                   memscope::RunViewState::FilterOrigin origin = FilterOrigin::Other);
    // Keeps the range, changes how it selects.
    void setFilterMode(memscope::RangeFilter::Mode mode);
    void clearFilter();
    // Asks the views that scroll (the timeline) to bring an allocation into view.
    void reveal(qint64 allocation) { emit revealRequested(allocation); }

  signals:
    void revealRequested(qint64 allocation);
    void traceChanged();
    void visibleRangeChanged(double x0, double x1);
    void selectedAllocationChanged(qint64 allocation);
    void highlightedAllocationsChanged(const QVector<qint64>& allocations);
    // The filter (std::nullopt: cleared) after any change of range, mode or origin.
    void filterChanged(const std::optional<memscope::RangeFilter>& filter);
    // The filter's event range [first, last) for views that take only a range (the flame graph);
    // (0, event count) when the filter is cleared.
    void filterRangeChanged(qint64 first, qint64 last);

  private:
    void emitFilter();

    std::shared_ptr<const Trace> m_trace;
    double m_x0 = 0;
    double m_x1 = 0;
    qint64 m_selected = -1;
    QVector<qint64> m_highlighted;
    std::optional<RangeFilter> m_filter;
    FilterOrigin m_origin = FilterOrigin::Other;
    mutable std::vector<int64_t> m_filtered;
    mutable bool m_filteredValid = false;
};

}  // namespace memscope
