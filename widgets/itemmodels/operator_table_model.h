#pragma once

#include "analysis/operator_table.h"
#include "analysis/range_filter.h"

#include <QAbstractItemModel>

#include <memory>
#include <optional>
#include <vector>

namespace memscope {

class Trace;

// An OperatorTable as a Qt item model: a flat list when grouped by operator, a tree when grouped
// by module. Columns follow torch.profiler's key_averages table. DisplayRole is for reading
// ("1.2 MiB", "3.456 ms"), SortRole gives the raw number (bytes, ns, FLOPs) so that sorting is
// numeric, SearchTextRole the name and every input shape, TableRowRole the OperatorTable row.
class OperatorTableModel : public QAbstractItemModel {
    Q_OBJECT

  public:
    enum Column {
        Name,
        Calls,
        SelfCpu,
        SelfCpuPercent,
        TotalCpu,
        TotalCpuPercent,
        DeviceTime,
        CpuMemory,
        SelfCpuMemory,
        SelfAllocated,
        InputShapes,
        Flops,
        BytesSent,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, SearchTextRole, TableRowRole };

    explicit OperatorTableModel(QObject* parent = nullptr);
    ~OperatorTableModel() override;

    // The trace and a table built from it (nullptr clears both).
    void setTable(std::shared_ptr<const Trace> trace, std::shared_ptr<const OperatorTable> table);
    const OperatorTable* table() const { return m_table.get(); }
    const Trace* trace() const { return m_trace.get(); }

    // Shows only the rows with an allocation the filter selects (made inside them, children
    // included), their memory columns counting those allocations only: CPU Mem and Self
    // Allocated the bytes they allocated, Self CPU Mem the bytes of those still live at the
    // range's end. Calls, times and FLOPs count the calls that ran in the range
    // (OperatorTable::callsIn), and rows with such a call show too; device time, bytes sent
    // and input shapes stay the whole run's, and so do calls and times of a run without op
    // spans (callsFollowFilter() false). std::nullopt shows every row again.
    void setRangeFilter(const std::optional<RangeFilter>& filter);
    const std::optional<RangeFilter>& rangeFilter() const { return m_filter; }
    // Whether the calls and times columns count the filter's range only.
    bool callsFollowFilter() const { return m_filter && !m_filterCalls.rows.empty(); }
    // The time the percentages refer to: inside the recorded scopes (that ran in the range).
    int64_t coveredNs() const;
    // Table rows shown: all of them, or those the filter keeps.
    int64_t shownRowCount() const;
    // Allocations made inside a row (children included) that pass the filter, ascending.
    std::vector<int64_t> allocationsInside(int64_t row) const;

    // The OperatorTable row of an index, or -1.
    int64_t tableRow(const QModelIndex& index) const;
    QModelIndex indexOfTableRow(int64_t row, int column = 0) const;
    // What the Name column shows for a row, and its full name (module path) for tooltips.
    QString displayName(int64_t row) const;
    QString fullName(int64_t row) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    QVariant display(const OperatorTable::Row& row, int64_t index, int column) const;
    QVariant sortValue(const OperatorTable::Row& row, int64_t index, int column) const;
    QVariant toolTip(const OperatorTable::Row& row, int64_t index, int column) const;
    const std::vector<int64_t>& childrenOf(int64_t row) const;
    void rebuildFilter();
    void rebuildPositions();
    int64_t bytesAllocated(const OperatorTable::Row& row, int64_t index) const;
    int64_t selfBytesAllocated(const OperatorTable::Row& row, int64_t index) const;
    int64_t selfNetBytes(const OperatorTable::Row& row, int64_t index) const;
    OperatorTable::Calls calls(const OperatorTable::Row& row, int64_t index) const;
    double selfPercent(const OperatorTable::Row& row, int64_t index) const;
    double totalPercent(const OperatorTable::Row& row, int64_t index) const;

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const OperatorTable> m_table;
    std::vector<int> m_position;  // per table row: its row number under its parent
    // The range filter: which allocations pass, and per table row the bytes the filter counts
    // and the children (and top-level rows) it keeps.
    std::optional<RangeFilter> m_filter;
    std::vector<uint8_t> m_pass;
    std::vector<int64_t> m_filterInside;
    std::vector<int64_t> m_filterSelf;
    std::vector<int64_t> m_filterLive;
    OperatorTable::CallsInRange m_filterCalls;
    std::vector<std::vector<int64_t>> m_filterChildren;
    std::vector<int64_t> m_filterTop;
    int64_t m_filterShown = 0;
};

}  // namespace memscope
