#include "itemmodels/sweep_table_model.h"

namespace memscope {

SweepTableModel::SweepTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void SweepTableModel::setTable(TableExporter::Table table) {
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

int SweepTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_table.rows.size());
}

int SweepTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_table.columns.size());
}

QVariant SweepTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const auto& row = m_table.rows[size_t(index.row())];
    const size_t column = size_t(index.column());
    if (column >= row.size()) {
        return {};
    }
    const bool numeric = column < m_table.numeric.size() && m_table.numeric[column];
    const QString text = QString::fromStdString(row[column]);
    switch (role) {
        case Qt::DisplayRole:
            return text;
        case Qt::UserRole: {
            bool ok = false;
            const double v = text.toDouble(&ok);
            return numeric && ok ? QVariant(v) : QVariant(text);
        }
        case Qt::TextAlignmentRole:
            return numeric ? int(Qt::AlignRight | Qt::AlignVCenter)
                           : int(Qt::AlignLeft | Qt::AlignVCenter);
        default:
            return {};
    }
}

QVariant SweepTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 &&
        size_t(section) < m_table.columns.size()) {
        return QString::fromStdString(m_table.columns[size_t(section)]);
    }
    return QAbstractTableModel::headerData(section, orientation, role);
}

}  // namespace memscope
