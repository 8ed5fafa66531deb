#include "itemmodels/memory_events_model.h"

#include "common/byte_format.h"
#include "common/timeline_labels.h"
#include "run_indexes.h"
#include "trace/trace.h"

#include <QLocale>

#include <algorithm>

namespace memscope {

MemoryEventsModel::MemoryEventsModel(QObject* parent) : QAbstractTableModel(parent) {}

MemoryEventsModel::~MemoryEventsModel() = default;

void MemoryEventsModel::setTrace(std::shared_ptr<const Trace> trace,
                                 std::shared_ptr<const RunIndexes> indexes) {
    beginResetModel();
    m_trace = std::move(trace);
    m_events.clear();
    m_indexes.reset();
    m_total = 0;
    if (m_trace) {
        m_indexes = indexes && indexes->sharedTrace() == m_trace
                        ? std::move(indexes)
                        : std::make_shared<const RunIndexes>(m_trace);
        for (const uint8_t kind : m_trace->events.kind) {
            const auto k = static_cast<EventKind>(kind);
            m_total += k == EventKind::Alloc || k == EventKind::Free ? 1 : 0;
        }
    }
    rebuildRows();
    endResetModel();
}

void MemoryEventsModel::setEventRange(int64_t first, int64_t last) {
    if (first == m_first && last == m_last) {
        return;
    }
    beginResetModel();
    m_first = first;
    m_last = last;
    rebuildRows();
    endResetModel();
}

void MemoryEventsModel::rebuildRows() {
    m_events.clear();
    if (m_trace) {
        const auto& kinds = m_trace->events.kind;
        const size_t begin = m_last >= 0 ? size_t(std::max<int64_t>(0, m_first)) : 0;
        const size_t end = m_last >= 0
                               ? std::min(kinds.size(), size_t(std::max<int64_t>(0, m_last)))
                               : kinds.size();
        for (size_t i = begin; i < end; ++i) {
            const auto kind = static_cast<EventKind>(kinds[i]);
            if (kind == EventKind::Alloc || kind == EventKind::Free) {
                m_events.push_back(int64_t(i));
            }
        }
    }
}

std::vector<int> MemoryEventsModel::rowsOfAllocation(int64_t allocation) const {
    std::vector<int> rows;
    if (!m_trace || allocation < 0 || allocation >= int64_t(m_trace->allocations().size())) {
        return rows;
    }
    const Allocation& a = m_trace->allocations()[size_t(allocation)];
    for (int64_t e : {a.alloc_event, a.free_event}) {
        const auto it = std::lower_bound(m_events.begin(), m_events.end(), e);
        if (e >= 0 && it != m_events.end() && *it == e) {
            rows.push_back(int(it - m_events.begin()));
        }
    }
    return rows;
}

int64_t MemoryEventsModel::eventAt(int row) const {
    return row >= 0 && size_t(row) < m_events.size() ? m_events[size_t(row)] : -1;
}

int MemoryEventsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_events.size());
}

int MemoryEventsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MemoryEventsModel::value(int64_t event, int column, bool display) const {
    const auto& events = m_trace->events;
    const size_t i = size_t(event);
    const int64_t allocation = m_trace->allocationOfEvent()[i];
    const AllocationRecord* a =
        allocation >= 0 ? &m_trace->allocations().records()[size_t(allocation)] : nullptr;
    const QLocale locale;
    auto ms = [&](int64_t ns) -> QVariant {
        return display ? QVariant(tr("%1 ms").arg(locale.toString(double(ns) / 1e6, 'f', 3)))
                       : QVariant(qint64(ns));
    };
    auto bytes = [&](int64_t b) -> QVariant {
        return display ? QVariant(bytesText(b)) : QVariant(qint64(b));
    };
    switch (column) {
        case Time:
            return ms(events.time_ns[i]);
        case Action:
            return static_cast<EventKind>(events.kind[i]) == EventKind::Alloc ? tr("alloc")
                                                                              : tr("free");
        case Size:
            return bytes(events.size[i]);
        case Allocated:
            return bytes(events.allocated[i]);
        case Operator:
            return QString::fromStdString(m_indexes->attribution().operatorOf(events.stack[i]));
        case Module:
            return QString::fromStdString(m_indexes->attribution().moduleOf(events.stack[i]));
        case Phase:
            return TimelineLabels::phaseName(events.phase[i]);
        case Step:
            return int(events.step[i]);
        case AllocatedAt:
            if (!a || a->alloc_event < 0) {
                return display ? QVariant(tr("before recording")) : QVariant(qint64(-1));
            }
            return ms(events.time_ns[size_t(a->alloc_event)]);
        case ReleasedAt:
            if (!a || a->free_event < 0) {
                return display ? QVariant(tr("never")) : QVariant(qint64(INT64_MAX));
            }
            return ms(events.time_ns[size_t(a->free_event)]);
        case Duration:
            if (!a || a->alloc_event < 0 || a->free_event < 0) {
                return display ? QVariant(QString()) : QVariant(qint64(-1));
            }
            return ms(events.time_ns[size_t(a->free_event)] -
                      events.time_ns[size_t(a->alloc_event)]);
        default:
            return {};
    }
}

QVariant MemoryEventsModel::data(const QModelIndex& index, int role) const {
    if (!m_trace || !index.isValid() || index.row() >= int(m_events.size())) {
        return {};
    }
    const int64_t event = m_events[size_t(index.row())];
    switch (role) {
        case Qt::DisplayRole:
            return value(event, index.column(), true);
        case SortRole:
            return value(event, index.column(), false);
        case AllocationRole:
            return qint64(m_trace->allocationOfEvent()[size_t(event)]);
        case EventRole:
            return qint64(event);
        case SearchTextRole:
            return QStringList{
                value(event, Action, true).toString(), value(event, Operator, true).toString(),
                value(event, Module, true).toString(), value(event, Phase, true).toString()}
                .join(QLatin1Char('\n'));
        case Qt::ToolTipRole:
            if (index.column() == Size || index.column() == Allocated) {
                const auto& events = m_trace->events;
                const int64_t b = index.column() == Size ? events.size[size_t(event)]
                                                         : events.allocated[size_t(event)];
                return tr("%1 bytes").arg(QLocale().toString(qint64(b)));
            }
            if (index.column() == Operator || index.column() == Module) {
                return QString::fromStdString(
                    m_trace->stacks.describe(m_trace->events.stack[size_t(event)]));
            }
            return {};
        case Qt::TextAlignmentRole:
            switch (index.column()) {
                case Operator:
                case Module:
                case Phase:
                case Action:
                    return int(Qt::AlignLeft | Qt::AlignVCenter);
                default:
                    return int(Qt::AlignRight | Qt::AlignVCenter);
            }
        default:
            return {};
    }
}

QVariant MemoryEventsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case Time:
            return tr("Time");
        case Action:
            return tr("Event");
        case Size:
            return tr("Size");
        case Allocated:
            return tr("Allocated after");
        case Operator:
            return tr("Operator");
        case Module:
            return tr("Module");
        case Phase:
            return tr("Phase");
        case Step:
            return tr("Step");
        case AllocatedAt:
            return tr("Allocated at");
        case ReleasedAt:
            return tr("Released at");
        case Duration:
            return tr("Duration");
        default:
            return {};
    }
}

}  // namespace memscope
