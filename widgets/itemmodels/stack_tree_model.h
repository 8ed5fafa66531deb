#pragma once

#include <QAbstractItemModel>

#include <memory>
#include <vector>

namespace memscope {

class StackTree;

// A StackTree (top-down or bottom-up) as a Qt tree model, heaptrack's columns: the frame, the
// bytes alive at the chosen time ("peak"), the bytes allocated, the temporary bytes and the
// allocations made. The root's children are the top-level rows. DisplayRole is for reading,
// SortRole the raw number (so sorting is numeric), NodeRole the StackTree node.
class StackTreeModel : public QAbstractItemModel {
    Q_OBJECT

  public:
    enum Column { Frame, Peak, Allocated, Temporary, Allocations, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1, NodeRole };

    explicit StackTreeModel(QObject* parent = nullptr);
    ~StackTreeModel() override;

    void setTree(std::shared_ptr<const StackTree> tree);
    const StackTree* tree() const { return m_tree.get(); }
    // The StackTree node of an index (0, the root, for an invalid one), and back.
    int nodeOf(const QModelIndex& index) const;
    QModelIndex indexOfNode(int node, int column = 0) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    std::shared_ptr<const StackTree> m_tree;
    std::vector<int> m_rowOf;  // node -> its row under its parent
};

}  // namespace memscope
