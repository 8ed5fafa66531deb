#include "run_document.h"

#include "run_indexes.h"
#include "when_finished.h"

#include "analysis/operator_table.h"
#include "layout/timeline_layout.h"
#include "trace/trace.h"

#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace memscope {

RunDocument::RunDocument(QObject* parent) : QObject(parent) {
    qRegisterMetaType<std::optional<memscope::RangeFilter>>();
}

RunDocument::~RunDocument() = default;

void RunDocument::setTrace(std::shared_ptr<const Trace> trace, bool continuation,
                           std::shared_ptr<TimelineLayout> layout) {
    if (trace == m_trace) {
        setLayout(std::move(layout));
        return;
    }
    continuation = continuation && m_trace && trace;
    m_continuation = continuation;
    m_trace = std::move(trace);
    m_indexes.reset();
    if (m_operatorTrace.lock() != m_trace) {
        m_operatorTrace.reset();
        m_operatorTable = {};
    }
    m_filteredValid = false;
    // A new trace's layout is new even where the object is the same (extended in place).
    const bool layout_changed = layout != m_layout || layout;
    m_layout = std::move(layout);
    ++m_layoutGeneration;
    m_layingOut = false;
    if (!continuation) {
        // Before traceChanged, so that a view following the trace never sees the old run's
        // selection with the new run.
        setSelectedAllocation(-1);
        setHoveredAllocation(-1);
        setHighlightedAllocations({});
        setModuleFilter(QString(), nullptr);
        clearFilter();
    }
    emit traceChanged();
    if (layout_changed) {
        emit layoutChanged();
    }
}

void RunDocument::setLayout(std::shared_ptr<TimelineLayout> layout) {
    if (layout == m_layout) {
        return;
    }
    m_layout = std::move(layout);
    ++m_layoutGeneration;
    m_layingOut = false;
    emit layoutChanged();
}

bool RunDocument::requestLayout() {
    if (m_layout || !m_trace) {
        return m_layout != nullptr;
    }
    if (m_layingOut) {
        return false;
    }
    if (m_continuation || int64_t(m_trace->events.count()) <= kSyncLayoutEvents) {
        setLayout(std::make_shared<TimelineLayout>(*m_trace));
        return true;
    }
    m_layingOut = true;
    const uint64_t generation = m_layoutGeneration;
    whenFinished(this, QtConcurrent::run([trace = m_trace] {
                     return std::make_shared<TimelineLayout>(*trace);
                 }),
                 [this, generation](std::shared_ptr<TimelineLayout> layout) {
                     if (generation == m_layoutGeneration) {
                         setLayout(std::move(layout));
                     }
                 });
    return false;
}

std::shared_ptr<const RunIndexes> RunDocument::indexes() const {
    if (!m_indexes && m_trace) {
        m_indexes = std::make_shared<const RunIndexes>(m_trace);
        ++m_indexBuilds;
    }
    return m_indexes;
}

QFuture<std::shared_ptr<const OperatorTable>> RunDocument::operatorTable(
    const std::shared_ptr<const Trace>& trace, bool now) const {
    if (!trace) {
        return {};
    }
    if (m_operatorTable.isValid() && m_operatorTrace.lock() == trace) {
        return m_operatorTable;
    }
    auto build = [trace] {
        return std::make_shared<const OperatorTable>(
            OperatorTable::build(*trace, OperatorTable::Grouping::ByOperator));
    };
    m_operatorTable = now ? QtFuture::makeReadyFuture(build()) : QtConcurrent::run(build);
    m_operatorTrace = trace;
    ++m_operatorTableBuilds;
    return m_operatorTable;
}

const std::vector<int64_t>& RunDocument::filteredAllocations() const {
    if (!m_filteredValid) {
        m_filtered = m_filter && m_trace ? m_filter->allocations(*m_trace) : std::vector<int64_t>();
        m_filteredValid = true;
    }
    return m_filtered;
}

std::pair<int64_t, int64_t> RunDocument::eventRangeOfX(const TimelineLayout& layout,
                                                       int64_t event_count, double x0, double x1) {
    const int64_t n = layout.xCount();
    if (n == 0) {
        return {0, 0};
    }
    const int64_t first_x = std::clamp<int64_t>(int64_t(std::floor(x0)), 0, n - 1);
    const int64_t last_x = std::clamp<int64_t>(int64_t(std::ceil(x1)), first_x + 1, n);
    const int64_t first = layout.eventAt(first_x);
    const int64_t last =
        last_x >= n ? std::max(event_count, layout.eventAt(n - 1) + 1) : layout.eventAt(last_x);
    return {first, std::max(first + 1, last)};
}

double RunDocument::xOfEvent(const TimelineLayout& layout, int64_t event) {
    int64_t lo = 0;
    int64_t hi = layout.xCount();
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (layout.eventAt(mid) < event) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return double(lo);
}

void RunDocument::setFilterFromX(const TimelineLayout& layout, double x0, double x1,
                                 FilterOrigin origin) {
    const int64_t events = m_trace ? int64_t(m_trace->events.count()) : 0;
    const auto [first, last] = eventRangeOfX(layout, events, x0, x1);
    setFilter(RangeFilter(first, last, m_filter ? m_filter->mode : RangeFilter::Mode::AliveIn),
              origin);
}

void RunDocument::setVisibleRange(double x0, double x1) {
    if (x0 == m_x0 && x1 == m_x1) {
        return;
    }
    m_x0 = x0;
    m_x1 = x1;
    emit visibleRangeChanged(x0, x1);
}

void RunDocument::setTimeAxis(bool on) {
    if (on == m_timeAxis) {
        return;
    }
    m_timeAxis = on;
    emit timeAxisChanged(on);
}

void RunDocument::setDetail(qint64 n) {
    if (n == m_detail) {
        return;
    }
    m_detail = n;
    emit detailChanged(n);
}

void RunDocument::setHoveredAllocation(qint64 allocation) {
    if (allocation == m_hovered) {
        return;
    }
    m_hovered = allocation;
    emit hoveredAllocationChanged(allocation);
}

void RunDocument::setRank(int rank) {
    if (rank == m_rank) {
        return;
    }
    m_rank = rank;
    emit rankChanged(rank);
}

void RunDocument::setSelectedAllocation(qint64 allocation) {
    if (allocation == m_selected) {
        return;
    }
    m_selected = allocation;
    emit selectedAllocationChanged(allocation);
}

void RunDocument::setHighlightedAllocations(const QVector<qint64>& allocations) {
    if (allocations == m_highlighted) {
        return;
    }
    m_highlighted = allocations;
    emit highlightedAllocationsChanged(m_highlighted);
}

void RunDocument::setModuleFilter(const QString& path,
                                  std::shared_ptr<const std::vector<uint8_t>> mask) {
    if (path.isEmpty() || !mask) {
        if (m_module.isEmpty() && !m_moduleMask) {
            return;
        }
        m_module.clear();
        m_moduleMask.reset();
    } else {
        if (path == m_module && mask == m_moduleMask) {
            return;
        }
        m_module = path;
        m_moduleMask = std::move(mask);
    }
    emit moduleFilterChanged(m_module);
}

void RunDocument::setFilter(const RangeFilter& filter, FilterOrigin origin) {
    RangeFilter f = filter;
    if (m_trace) {
        const auto count = static_cast<int64_t>(m_trace->events.count());
        f.first = std::clamp<int64_t>(f.first, 0, count);
        f.last = std::clamp<int64_t>(f.last, 0, count);
    }
    if (f.empty()) {
        clearFilter();
        return;
    }
    if (m_filter == f && m_origin == origin) {
        return;
    }
    m_filter = f;
    m_origin = origin;
    m_filteredValid = false;
    emitFilter();
}

void RunDocument::setFilterMode(RangeFilter::Mode mode) {
    if (!m_filter || m_filter->mode == mode) {
        return;
    }
    m_filter->mode = mode;
    m_filteredValid = false;
    emitFilter();
}

void RunDocument::clearFilter() {
    if (!m_filter) {
        return;
    }
    m_filter.reset();
    m_filteredValid = false;
    emitFilter();
}

void RunDocument::emitFilter() {
    emit filterChanged(m_filter);
    if (m_filter) {
        emit filterRangeChanged(m_filter->first, m_filter->last);
    } else {
        emit filterRangeChanged(0, m_trace ? qint64(m_trace->events.count()) : 0);
    }
}

}  // namespace memscope
