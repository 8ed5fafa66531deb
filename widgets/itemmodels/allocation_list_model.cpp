#include "itemmodels/allocation_list_model.h"

#include "common/byte_format.h"
#include "common/timeline_labels.h"
#include "run_indexes.h"
#include "trace/trace.h"

#include <QLocale>

#include <algorithm>

namespace memscope {

AllocationListModel::AllocationListModel(QObject* parent) : QAbstractTableModel(parent) {}

AllocationListModel::~AllocationListModel() = default;

void AllocationListModel::setTrace(std::shared_ptr<const Trace> trace,
                                   std::shared_ptr<const RunIndexes> indexes) {
    beginResetModel();
    m_trace = std::move(trace);
    m_order.clear();
    m_rowOf.clear();
    m_indexes.reset();
    if (m_trace) {
        m_indexes = indexes && indexes->sharedTrace() == m_trace
                        ? std::move(indexes)
                        : std::make_shared<const RunIndexes>(m_trace);
    }
    rebuildRows();
    endResetModel();
}

void AllocationListModel::setRangeFilter(const std::optional<RangeFilter>& filter) {
    if (filter == m_filter) {
        return;
    }
    beginResetModel();
    m_filter = filter;
    rebuildRows();
    endResetModel();
}

void AllocationListModel::setAllocationMask(std::shared_ptr<const std::vector<uint8_t>> mask) {
    if (mask == m_mask) {
        return;
    }
    beginResetModel();
    m_mask = std::move(mask);
    rebuildRows();
    endResetModel();
}

void AllocationListModel::rebuildRows() {
    m_order.clear();
    m_rowOf.clear();
    if (m_trace) {
        const auto& allocations = m_trace->allocations();
        if (m_filter) {
            m_order = m_filter->allocations(*m_trace);
        } else {
            m_order.resize(allocations.size());
            for (size_t i = 0; i < m_order.size(); ++i) {
                m_order[i] = int64_t(i);
            }
        }
        if (m_mask) {
            const auto& mask = *m_mask;
            m_order.erase(std::remove_if(m_order.begin(), m_order.end(),
                                         [&mask](int64_t a) {
                                             return size_t(a) >= mask.size() ||
                                                    mask[size_t(a)] == 0;
                                         }),
                          m_order.end());
        }
        std::stable_sort(m_order.begin(), m_order.end(), [&allocations](int64_t a, int64_t b) {
            return allocations[size_t(a)].size > allocations[size_t(b)].size;
        });
        m_rowOf.assign(allocations.size(), -1);
        for (size_t r = 0; r < m_order.size(); ++r) {
            m_rowOf[size_t(m_order[r])] = int(r);
        }
    }
}

int AllocationListModel::rowOfAllocation(int64_t allocation) const {
    if (allocation < 0 || allocation >= int64_t(m_rowOf.size())) {
        return -1;
    }
    return m_rowOf[size_t(allocation)];
}

int64_t AllocationListModel::allocationAt(int row) const {
    return row >= 0 && size_t(row) < m_order.size() ? m_order[size_t(row)] : -1;
}

int AllocationListModel::totalCount() const {
    return m_trace ? int(m_trace->allocations().size()) : 0;
}

int AllocationListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_order.size());
}

int AllocationListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AllocationListModel::value(int64_t allocation, int column, bool display) const {
    const Allocation& a = m_trace->allocations()[size_t(allocation)];
    const auto& events = m_trace->events;
    const int64_t e = a.event();
    const uint32_t stack = e >= 0 ? events.stack[size_t(e)] : 0;
    const QLocale locale;
    auto ms = [&](int64_t ns) -> QVariant {
        return display ? QVariant(tr("%1 ms").arg(locale.toString(double(ns) / 1e6, 'f', 3)))
                       : QVariant(qint64(ns));
    };
    switch (column) {
        case Index:
            return display ? QVariant(locale.toString(qint64(allocation)))
                           : QVariant(qint64(allocation));
        case Size:
            return display ? QVariant(bytesText(a.size)) : QVariant(qint64(a.size));
        case Category:
            return TimelineLabels::categoryName(int(a.category));
        case Phase:
            if (a.alloc_event < 0) {
                return tr("before recording");
            }
            return TimelineLabels::phaseName(events.phase[size_t(a.alloc_event)]);
        case Step:
            return e >= 0 ? QVariant(int(events.step[size_t(e)])) : QVariant();
        case Module:
            return QString::fromStdString(m_indexes->attribution().moduleOf(stack));
        case Operator:
            return QString::fromStdString(m_indexes->attribution().operatorOf(stack));
        case AllocatedAt:
            if (a.alloc_event < 0) {
                return display ? QVariant(tr("before recording")) : QVariant(qint64(-1));
            }
            return ms(events.time_ns[size_t(a.alloc_event)]);
        case FreedAt:
            if (a.free_event < 0) {
                return display ? QVariant(tr("never")) : QVariant(qint64(INT64_MAX));
            }
            return ms(events.time_ns[size_t(a.free_event)]);
        case Lifetime:
            if (a.alloc_event < 0 || a.free_event < 0) {
                return display ? QVariant(QString()) : QVariant(qint64(-1));
            }
            return ms(events.time_ns[size_t(a.free_event)] - events.time_ns[size_t(a.alloc_event)]);
        default:
            return {};
    }
}

QVariant AllocationListModel::data(const QModelIndex& index, int role) const {
    if (!m_trace || !index.isValid() || index.row() >= int(m_order.size())) {
        return {};
    }
    const int64_t allocation = m_order[size_t(index.row())];
    switch (role) {
        case Qt::DisplayRole:
            return value(allocation, index.column(), true);
        case SortRole:
            return value(allocation, index.column(), false);
        case AllocationRole:
            return qint64(allocation);
        case SearchTextRole:
            return QStringList{value(allocation, Category, true).toString(),
                               value(allocation, Phase, true).toString(),
                               value(allocation, Module, true).toString(),
                               value(allocation, Operator, true).toString()}
                .join(QLatin1Char('\n'));
        case Qt::ToolTipRole:
            if (index.column() == Size) {
                return tr("%1 bytes")
                    .arg(QLocale().toString(
                        qint64(m_trace->allocations()[size_t(allocation)].size)));
            }
            if (index.column() == Module || index.column() == Operator) {
                const Allocation& a = m_trace->allocations()[size_t(allocation)];
                const int64_t e = a.event();
                return e >= 0 ? QString::fromStdString(
                                    m_trace->stacks.describe(m_trace->events.stack[size_t(e)]))
                              : QString();
            }
            return {};
        case Qt::TextAlignmentRole:
            switch (index.column()) {
                case Index:
                case Size:
                case Step:
                case AllocatedAt:
                case FreedAt:
                case Lifetime:
                    return int(Qt::AlignRight | Qt::AlignVCenter);
                default:
                    return int(Qt::AlignLeft | Qt::AlignVCenter);
            }
        default:
            return {};
    }
}

QVariant AllocationListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case Index:
            return tr("Allocation");
        case Size:
            return tr("Size");
        case Category:
            return tr("Category");
        case Phase:
            return tr("Phase");
        case Step:
            return tr("Step");
        case Module:
            return tr("Module");
        case Operator:
            return tr("Operator");
        case AllocatedAt:
            return tr("Allocated at");
        case FreedAt:
            return tr("Freed at");
        case Lifetime:
            return tr("Lifetime");
        default:
            return {};
    }
}

}  // namespace memscope
