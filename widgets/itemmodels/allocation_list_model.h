#pragma once

#include "analysis/range_filter.h"

#include <QAbstractTableModel>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace memscope {

class RunIndexes;
class Trace;

// Every allocation of a trace, largest first: size, category, phase, step, module, operator,
// when it was allocated and freed (ms since the run started) and its lifetime. SortRole gives
// raw numbers, SearchTextRole the words a search looks in, AllocationRole the Trace::allocations()
// index.
class AllocationListModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column {
        Index,
        Size,
        Category,
        Phase,
        Step,
        Module,
        Operator,
        AllocatedAt,
        FreedAt,
        Lifetime,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, AllocationRole, SearchTextRole };

    explicit AllocationListModel(QObject* parent = nullptr);
    ~AllocationListModel() override;

    // Module and operator names come from `indexes` when they are the trace's (the run
    // document's, shared with the other views), else from indexes built here.
    void setTrace(std::shared_ptr<const Trace> trace,
                  std::shared_ptr<const RunIndexes> indexes = nullptr);
    const std::shared_ptr<const Trace>& trace() const { return m_trace; }
    // Lists only the allocations the filter selects (std::nullopt: all of them).
    void setRangeFilter(const std::optional<RangeFilter>& filter);
    const std::optional<RangeFilter>& rangeFilter() const { return m_filter; }
    // Lists only the allocations whose flag is set (a module filter, RunDocument::moduleMask;
    // nullptr: all), and those the range filter selects.
    void setAllocationMask(std::shared_ptr<const std::vector<uint8_t>> mask);
    // The row showing an allocation, or -1.
    int rowOfAllocation(int64_t allocation) const;
    int64_t allocationAt(int row) const;
    // Every allocation of the run, whatever the filter lists.
    int totalCount() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    QVariant value(int64_t allocation, int column, bool display) const;
    void rebuildRows();

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const RunIndexes> m_indexes;
    std::optional<RangeFilter> m_filter;
    std::shared_ptr<const std::vector<uint8_t>> m_mask;
    std::vector<int64_t> m_order;  // row -> allocation
    std::vector<int> m_rowOf;      // allocation -> row
};

}  // namespace memscope
