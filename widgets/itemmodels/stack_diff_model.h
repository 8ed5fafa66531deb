#pragma once

#include <QAbstractTableModel>

#include <memory>

namespace memscope {

class StackDiff;

// The rows of a StackDiff: each stack whose bytes at the peak differ between run A and run B,
// the largest change first. DisplayRole is for reading, SortRole the raw number.
class StackDiffModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column { Stack, BytesA, BytesB, Difference, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit StackDiffModel(QObject* parent = nullptr);
    ~StackDiffModel() override;

    void setDiff(std::shared_ptr<const StackDiff> diff);
    const StackDiff* diff() const { return m_diff.get(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    std::shared_ptr<const StackDiff> m_diff;
};

}  // namespace memscope
