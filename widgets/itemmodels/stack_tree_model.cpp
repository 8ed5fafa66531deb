#include "itemmodels/stack_tree_model.h"

#include "analysis/stack_tree.h"
#include "common/byte_format.h"

#include <QLocale>

namespace memscope {

StackTreeModel::StackTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

StackTreeModel::~StackTreeModel() = default;

void StackTreeModel::setTree(std::shared_ptr<const StackTree> tree) {
    beginResetModel();
    m_tree = std::move(tree);
    m_rowOf.assign(m_tree ? m_tree->size() : 0, 0);
    if (m_tree) {
        for (const StackTreeNode& n : m_tree->nodes()) {
            for (size_t r = 0; r < n.children.size(); ++r) {
                m_rowOf[size_t(n.children[r])] = int(r);
            }
        }
    }
    endResetModel();
}

int StackTreeModel::nodeOf(const QModelIndex& index) const {
    return index.isValid() ? int(index.internalId()) : 0;
}

QModelIndex StackTreeModel::indexOfNode(int node, int column) const {
    if (!m_tree || node <= 0 || size_t(node) >= m_tree->size()) {
        return {};
    }
    return createIndex(m_rowOf[size_t(node)], column, quintptr(node));
}

QModelIndex StackTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!m_tree || row < 0 || column < 0 || column >= ColumnCount ||
        (parent.isValid() && parent.column() != 0)) {
        return {};
    }
    const auto& children = m_tree->node(nodeOf(parent)).children;
    if (size_t(row) >= children.size()) {
        return {};
    }
    return createIndex(row, column, quintptr(children[size_t(row)]));
}

QModelIndex StackTreeModel::parent(const QModelIndex& child) const {
    if (!m_tree || !child.isValid()) {
        return {};
    }
    return indexOfNode(m_tree->node(nodeOf(child)).parent);
}

int StackTreeModel::rowCount(const QModelIndex& parent) const {
    if (!m_tree || (parent.isValid() && parent.column() != 0)) {
        return 0;
    }
    return int(m_tree->node(nodeOf(parent)).children.size());
}

int StackTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant StackTreeModel::data(const QModelIndex& index, int role) const {
    if (!m_tree || !index.isValid()) {
        return {};
    }
    const int node = nodeOf(index);
    const StackTreeNode& n = m_tree->node(node);
    if (role == NodeRole) {
        return node;
    }
    if (role == Qt::ToolTipRole && index.column() == Frame) {
        return QString::fromStdString(n.name);
    }
    if (role == Qt::TextAlignmentRole && index.column() != Frame) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role != Qt::DisplayRole && role != SortRole) {
        return {};
    }
    const bool sort = role == SortRole;
    switch (index.column()) {
        case Frame:
            return QString::fromStdString(n.name);
        case Peak:
            return sort ? QVariant(qint64(n.bytes)) : QVariant(bytesText(n.bytes));
        case Allocated:
            return sort ? QVariant(qint64(n.allocated_bytes))
                        : QVariant(bytesText(n.allocated_bytes));
        case Temporary:
            return sort ? QVariant(qint64(n.temporary_bytes))
                        : QVariant(bytesText(n.temporary_bytes));
        case Allocations:
            return sort ? QVariant(qint64(n.allocations))
                        : QVariant(QLocale().toString(qint64(n.allocations)));
        default:
            return {};
    }
}

QVariant StackTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return {};
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
            case Peak:
                return tr("Bytes alive at the chosen time (by default the peak)");
            case Allocated:
                return tr("Bytes of all allocations made (in the range, when one is set)");
            case Temporary:
                return tr(
                    "Bytes of allocations freed right away: the next allocation or free "
                    "after them is their own free (heaptrack's definition)");
            case Allocations:
                return tr("Allocations made (in the range, when one is set)");
            default:
                return {};
        }
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case Frame:
            return tr("Frame");
        case Peak:
            return tr("Peak");
        case Allocated:
            return tr("Allocated");
        case Temporary:
            return tr("Temporary");
        case Allocations:
            return tr("Allocations");
        default:
            return {};
    }
}

}  // namespace memscope
