#pragma once

#include <QAbstractTableModel>

#include <cstdint>
#include <memory>
#include <vector>

namespace memscope {

class RunIndexes;
class Trace;

// One row per alloc and free event, in time order: when, which (alloc / free), the size
// (negative for a free), live bytes after it, the operator and module it happened in, phase
// and step, and the life of its allocation (allocated at, released at, duration). SortRole gives
// raw numbers, SearchTextRole the words a search looks in, AllocationRole the Trace::allocations()
// index, EventRole the event index.
class MemoryEventsModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column {
        Time,
        Action,
        Size,
        Allocated,
        Operator,
        Module,
        Phase,
        Step,
        AllocatedAt,
        ReleasedAt,
        Duration,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, AllocationRole, EventRole, SearchTextRole };

    explicit MemoryEventsModel(QObject* parent = nullptr);
    ~MemoryEventsModel() override;

    // Module and operator names come from `indexes` when they are the trace's (the run
    // document's, shared with the other views), else from indexes built here.
    void setTrace(std::shared_ptr<const Trace> trace,
                  std::shared_ptr<const RunIndexes> indexes = nullptr);
    // Lists only the events in [first, last) (a negative last: all events).
    void setEventRange(int64_t first, int64_t last);
    void clearEventRange() { setEventRange(0, -1); }
    // The rows of an allocation's alloc and free events (none, one or two), ascending.
    std::vector<int> rowsOfAllocation(int64_t allocation) const;
    int64_t eventAt(int row) const;
    // Every alloc and free event of the run, whatever the range lists.
    int totalCount() const { return m_total; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    QVariant value(int64_t event, int column, bool display) const;

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const RunIndexes> m_indexes;
    void rebuildRows();
    int64_t m_first = 0;
    int64_t m_last = -1;            // -1: no range
    std::vector<int64_t> m_events;  // row -> event index (alloc and free events)
    int m_total = 0;                // alloc and free events in the whole run
};

}  // namespace memscope
