#pragma once

#include "analysis/operator_table.h"

#include <QAbstractItemModel>

#include <memory>
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

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const OperatorTable> m_table;
    std::vector<int> m_position;  // per table row: its row number under its parent
};

}  // namespace memscope
