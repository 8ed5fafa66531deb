#pragma once

#include "analysis/run_comparison.h"

#include <QAbstractTableModel>

namespace memscope {

// The difference table of two runs (RunComparison) as a flat table: Section, Name, A, B, Delta,
// Delta %. Display text is readable ("12.3 MiB"); Qt::UserRole holds the plain number (bytes,
// seconds, per second, percent) for sorting; tooltips give exact byte counts. Increases of
// memory or time are drawn red, decreases green (the other way round for throughput).
class ComparisonModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column {
        SectionColumn,
        NameColumn,
        AColumn,
        BColumn,
        DeltaColumn,
        PercentColumn,
        ColumnCount
    };

    explicit ComparisonModel(QObject* parent = nullptr);

    void setComparison(RunComparison comparison);
    const RunComparison& comparison() const { return m_comparison; }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    QString sectionText(RunComparison::Section section) const;
    // Display name of a row: summary figures are translated, categories, modules and operators
    // keep their names.
    QString nameText(const RunComparison::Row& row) const;

  private:
    RunComparison m_comparison;
};

}  // namespace memscope
