#pragma once

#include "analysis/range_filter.h"

#include <QFuture>
#include <QObject>
#include <QVector>

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace memscope {

class OperatorTable;
class RunIndexes;
class TimelineLayout;
class Trace;

// One open run and what the user looks at in it, shared by every view of it (issue 11).
// The run: the trace, its timeline layout (laid out here on the first requestLayout(), off the GUI
// thread for large runs; the timeline only draws it) and the derived per-trace indexes (RunIndexes:
// module and operator of every allocation, the OOM events), computed once per trace on first use.
// The view state: the timeline's visible window (x in alloc/free event indices, as TimelineView and
// TimelineMinimap count), the x axis (events or wall time), the detail (allocations drawn one by
// one), the pinned, hovered and highlighted allocations (an operator row's, a search's matches),
// the rank shown of a multi-process run and the active range filter (an event range [first, last),
// how it selects, and where it was made). Views follow it: each setter emits its signal only when
// the value changes, so a view that sets the state and follows it does not loop.
class RunDocument : public QObject {
    Q_OBJECT

  public:
    // Where the active filter came from (the chip says so in its tooltip).
    enum class FilterOrigin { Timeline, Minimap, CommandLine, Other };
    Q_ENUM(FilterOrigin)

    explicit RunDocument(QObject* parent = nullptr);
    ~RunDocument() override;

    // The run shown, and its layout when the caller has it (else setLayout when it is ready).
    // A different run clears the selection, the hover, the highlights and the filter; a newer
    // snapshot of the run on display (`continuation`: a live run growing) keeps them. The
    // window, x axis, detail and rank are the views' to set.
    void setTrace(std::shared_ptr<const Trace> trace, bool continuation = false,
                  std::shared_ptr<TimelineLayout> layout = nullptr);
    std::shared_ptr<const Trace> trace() const { return m_trace; }
    // Whether `run` is the run shown (never for nullptr): how a page, which holds its run weakly,
    // tells whether the document's filter and pin are about the run it shows.
    bool shows(const std::shared_ptr<const Trace>& run) const { return run && run == m_trace; }
    bool shows(const std::weak_ptr<const Trace>& run) const { return shows(run.lock()); }
    // Whether the trace shown came as a continuation of the one before it (a live run's newer
    // snapshot): the timeline then updates in place instead of starting over.
    bool isContinuation() const { return m_continuation; }
    // The trace's timeline layout (nullptr while it is laid out). It must belong to trace().
    void setLayout(std::shared_ptr<TimelineLayout> layout);
    std::shared_ptr<const TimelineLayout> layout() const { return m_layout; }
    // The same layout for the timeline, the one view that sets its detail (the largest n
    // allocations drawn one by one, shared with the minimap and the stack pane).
    std::shared_ptr<TimelineLayout> drawingLayout() const { return m_layout; }
    // Lays the trace out when it has no layout yet: here and now for a run of up to
    // kSyncLayoutEvents events or a continuation (a live run's next snapshot), else on a worker
    // thread (the Trace is immutable and shared), set with layoutChanged when it is done unless
    // another trace or layout came meanwhile. Returns whether the layout is there now; a second
    // request while one is computing starts nothing.
    bool requestLayout();
    // Whether a layout is computing on a worker thread for the trace shown.
    bool layingOut() const { return m_layingOut; }
    static constexpr int64_t kSyncLayoutEvents = 200000;
    // The trace's derived indexes, built on the first call after the trace changed (nullptr
    // without a trace); every view asking gets the same object.
    std::shared_ptr<const RunIndexes> indexes() const;
    // How many times indexes() has built them (tests: once per trace).
    int indexBuilds() const { return m_indexBuilds; }
    // The operator table of `trace` grouped by operator (OperatorTable::build, ByOperator): the
    // operator page's default table and the summary page's per-operator roofline, built once
    // per trace and shared. The first call starts the build, on a worker thread, or here and
    // now with `now` (a small run its caller shows at once); later calls for the same trace get
    // the same future (a caller with `now` waits for it with result(), which runs a build not
    // started yet in its own thread). Only the last trace asked for is kept; a new run drops
    // it. An invalid future without a trace.
    QFuture<std::shared_ptr<const OperatorTable>> operatorTable(
        const std::shared_ptr<const Trace>& trace, bool now = false) const;
    // How many times operatorTable() has started a build (tests: once per trace).
    int operatorTableBuilds() const { return m_operatorTableBuilds; }

    bool timeAxis() const { return m_timeAxis; }
    qint64 detail() const { return m_detail; }
    qint64 hoveredAllocation() const { return m_hovered; }
    // The rank of a multi-process run shown (-1: a single-process run).
    int rank() const { return m_rank; }

    double visibleX0() const { return m_x0; }
    double visibleX1() const { return m_x1; }
    qint64 selectedAllocation() const { return m_selected; }
    const QVector<qint64>& highlightedAllocations() const { return m_highlighted; }

    // The module every view is filtered to (the Modules tab's row; "" for none) and the
    // allocations it selects: one flag per allocation of the trace, 1 for those ModuleTable
    // gives the module or a sub-module of it. A new run clears it.
    const QString& moduleFilter() const { return m_module; }
    std::shared_ptr<const std::vector<uint8_t>> moduleMask() const { return m_moduleMask; }

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
                        memscope::RunDocument::FilterOrigin origin);

  public slots:
    void setVisibleRange(double x0, double x1);
    // x proportional to wall time (true) or to the alloc/free event index (false).
    void setTimeAxis(bool on);
    // The largest n allocations drawn one by one (-1: not known yet).
    void setDetail(qint64 n);
    void setSelectedAllocation(qint64 allocation);
    void setHoveredAllocation(qint64 allocation);
    void setRank(int rank);
    void setHighlightedAllocations(const QVector<qint64>& allocations);
    // Filters the views that follow it (allocations, flame graph) to a module's allocations;
    // an empty path (or no mask) clears it.
    void setModuleFilter(const QString& path, std::shared_ptr<const std::vector<uint8_t>> mask);
    // Filters every view to the allocations alive in (or made in) events [first, last), clamped
    // to the run; an empty range clears the filter.
    void setFilter(const memscope::RangeFilter& filter,
                   memscope::RunDocument::FilterOrigin origin = FilterOrigin::Other);
    // Keeps the range, changes how it selects.
    void setFilterMode(memscope::RangeFilter::Mode mode);
    void clearFilter();
    // Asks the views that scroll (the timeline) to bring an allocation into view.
    void reveal(qint64 allocation) { emit revealRequested(allocation); }

  signals:
    void revealRequested(qint64 allocation);
    // A new trace (selection, hover, highlights and filter are already reset for a new run).
    void traceChanged();
    // The layout was set, or a new trace came with its own (nullptr while laid out).
    void layoutChanged();
    void visibleRangeChanged(double x0, double x1);
    void timeAxisChanged(bool on);
    void detailChanged(qint64 n);
    void selectedAllocationChanged(qint64 allocation);
    void hoveredAllocationChanged(qint64 allocation);
    void rankChanged(int rank);
    void highlightedAllocationsChanged(const QVector<qint64>& allocations);
    // The module filter changed ("" when cleared); moduleMask() has its allocations.
    void moduleFilterChanged(const QString& path);
    // The filter (std::nullopt: cleared) after any change of range, mode or origin.
    void filterChanged(const std::optional<memscope::RangeFilter>& filter);
    // The filter's event range [first, last) for views that take only a range (the flame graph);
    // (0, event count) when the filter is cleared.
    void filterRangeChanged(qint64 first, qint64 last);

  private:
    void emitFilter();

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<TimelineLayout> m_layout;
    uint64_t m_layoutGeneration = 0;  // a layout computed for an older trace or layout is dropped
    bool m_layingOut = false;
    bool m_continuation = false;
    mutable std::shared_ptr<const RunIndexes> m_indexes;
    mutable int m_indexBuilds = 0;
    mutable std::weak_ptr<const Trace> m_operatorTrace;  // whose table m_operatorTable is
    mutable QFuture<std::shared_ptr<const OperatorTable>> m_operatorTable;
    mutable int m_operatorTableBuilds = 0;
    double m_x0 = 0;
    double m_x1 = 0;
    bool m_timeAxis = false;
    qint64 m_detail = -1;
    qint64 m_selected = -1;
    qint64 m_hovered = -1;
    int m_rank = -1;
    QVector<qint64> m_highlighted;
    QString m_module;
    std::shared_ptr<const std::vector<uint8_t>> m_moduleMask;
    std::optional<RangeFilter> m_filter;
    FilterOrigin m_origin = FilterOrigin::Other;
    mutable std::vector<int64_t> m_filtered;
    mutable bool m_filteredValid = false;
};

}  // namespace memscope
