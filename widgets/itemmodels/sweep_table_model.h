#pragma once

#include "analysis/table_exporter.h"

#include <QAbstractTableModel>

namespace memscope {

// A table of strings (a TableExporter::Table: the sweep's points or a seed table) for a
// QTableView. Numeric columns are right-aligned and Qt::UserRole gives their number for sorting.
// Column names are the seed documents' own ("Peak Memory (MB)") so that they match the
// exercise sheets.
class SweepTableModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    explicit SweepTableModel(QObject* parent = nullptr);

    void setTable(TableExporter::Table table);
    const TableExporter::Table& table() const { return m_table; }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    TableExporter::Table m_table;
};

}  // namespace memscope
