#include "itemmodels/stack_diff_model.h"

#include "analysis/stack_diff.h"
#include "common/byte_format.h"

#include <QBrush>
#include <QColor>

namespace memscope {

StackDiffModel::StackDiffModel(QObject* parent) : QAbstractTableModel(parent) {}

StackDiffModel::~StackDiffModel() = default;

void StackDiffModel::setDiff(std::shared_ptr<const StackDiff> diff) {
    beginResetModel();
    m_diff = std::move(diff);
    endResetModel();
}

int StackDiffModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_diff ? 0 : int(m_diff->rows().size());
}

int StackDiffModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StackDiffModel::data(const QModelIndex& index, int role) const {
    if (!m_diff || !index.isValid() || size_t(index.row()) >= m_diff->rows().size()) {
        return {};
    }
    const StackDiff::Row& row = m_diff->rows()[size_t(index.row())];
    if (role == Qt::TextAlignmentRole && index.column() != Stack) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::ForegroundRole && index.column() == Difference) {
        return QBrush(row.delta() > 0 ? QColor(180, 20, 20) : QColor(20, 60, 190));
    }
    if (role == Qt::ToolTipRole && index.column() == Stack) {
        return QString::fromStdString(StackDiff::describe(row.frames));
    }
    if (role != Qt::DisplayRole && role != SortRole) {
        return {};
    }
    const bool sort = role == SortRole;
    switch (index.column()) {
        case Stack:
            return QString::fromStdString(StackDiff::describe(row.frames));
        case BytesA:
            return sort ? QVariant(qint64(row.bytes_a)) : QVariant(bytesText(row.bytes_a));
        case BytesB:
            return sort ? QVariant(qint64(row.bytes_b)) : QVariant(bytesText(row.bytes_b));
        case Difference: {
            const int64_t d = row.delta();
            if (sort) {
                return qint64(d);
            }
            return signedBytesText(d);
        }
        default:
            return {};
    }
}

QVariant StackDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case Stack:
            return tr("Stack");
        case BytesA:
            return tr("A at its peak");
        case BytesB:
            return tr("B at its peak");
        case Difference:
            return tr("Difference");
        default:
            return {};
    }
}

}  // namespace memscope
