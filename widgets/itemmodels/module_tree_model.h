#pragma once

#include <QAbstractItemModel>

#include <memory>
#include <vector>

namespace memscope {

class ModuleTable;

// A ModuleTable (issue 41) as a Qt tree model: each module path under its parent module, the
// "(no module)" row last among the top rows. The byte columns are a row's total (its
// sub-modules included): what it holds at the table's moment, split by column as ModuleTable
// counts them, then its forward and backward peaks over the run and the bytes saved for backward.
// DisplayRole is for reading ("1.2 MiB"), SortRole the raw number (so sorting is numeric), and
// PathRole / TableRowRole the row's module path ("" for "(no module)") and ModuleTable row.
class ModuleTreeModel : public QAbstractItemModel {
    Q_OBJECT

  public:
    enum Column {
        Module,
        Held,
        Parameters,
        Gradients,
        OptimizerState,
        Activations,
        Temporaries,
        Backward,
        Other,
        ForwardPeak,
        BackwardPeak,
        SavedForBackward,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, PathRole, TableRowRole };

    explicit ModuleTreeModel(QObject* parent = nullptr);
    ~ModuleTreeModel() override;

    void setTable(std::shared_ptr<const ModuleTable> table);
    const ModuleTable* table() const { return m_table.get(); }
    // The ModuleTable row of an index (-1 for an invalid one), and back.
    int tableRow(const QModelIndex& index) const;
    QModelIndex indexOfTableRow(int row, int column = 0) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    // The raw figure of table row `row` in `column` (bytes).
    qint64 value(int row, int column) const;

    std::shared_ptr<const ModuleTable> m_table;
    std::vector<int> m_tops;                   // top rows, in table order
    std::vector<std::vector<int>> m_children;  // per table row, in table order
    std::vector<int> m_rowOf;                  // table row -> its row under its parent
};

}  // namespace memscope
