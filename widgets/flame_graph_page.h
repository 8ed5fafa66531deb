#pragma once

#include <QVector>
#include <QWidget>

#include <cstdint>
#include <memory>

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QSplitter;
class QTabWidget;
class QTreeView;

namespace memscope {

class FlameGraphView;
class RunDocument;
class StackTree;
class StackTreeModel;
class Trace;

// The Flame Graph tab: the bytes alive at a chosen time (the peak of allocated memory unless the
// user follows the timeline's selected allocation) by stack, as an icicle and as heaptrack's
// top-down and bottom-up trees (peak, allocated and temporary bytes, allocations; sortable).
// Clicking a frame, or choosing a tree row, emits the allocations alive under it for the
// timeline to highlight. setEventRange() restricts everything to allocations alive in (or made
// in) an event range. Following a run document, the highlights go to it and its range filter
// and pinned allocation drive the range and "the selected time" while the page shows its run.
class FlameGraphPage : public QWidget {
    Q_OBJECT

  public:
    enum class TimeChoice { Peak, Selected };

    explicit FlameGraphPage(QWidget* parent = nullptr);
    // Following `document` (setViewState).
    FlameGraphPage(RunDocument* document, QWidget* parent);
    ~FlameGraphPage() override;

    // A run; the document's filter and pinned allocation apply at once when it is the
    // document's run.
    void setTrace(std::shared_ptr<const Trace> trace);
    const Trace* trace() const { return m_trace.get(); }
    // Follows a run document (nullptr: none).
    void setViewState(RunDocument* document);
    // Shows the bytes alive just after event `event` (as "at the selected time").
    void showAtEvent(int64_t event);
    void setTimeChoice(TimeChoice choice);
    TimeChoice timeChoice() const;

    // The event the trees show (-1: none), and the trees themselves.
    int64_t atEvent() const;
    const StackTree* topDown() const { return m_topDown.get(); }
    const StackTree* bottomUp() const { return m_bottomUp.get(); }
    int64_t rangeFirst() const { return m_first; }
    int64_t rangeLast() const { return m_last; }

    FlameGraphView* flameGraph() const { return m_flame; }
    QTreeView* topDownView() const { return m_topDownView; }
    QTreeView* bottomUpView() const { return m_bottomUpView; }
    StackTreeModel* topDownModel() const { return m_topDownModel; }
    StackTreeModel* bottomUpModel() const { return m_bottomUpModel; }

  public slots:
    // Restricts the trees to allocations alive in (or made in) events [first, last); last < 0
    // (or last <= first) clears the range.
    void setEventRange(qint64 first, qint64 last);
    // The timeline's pinned allocation: its alloc event is "the selected time" (-1 clears).
    void setSelectedAllocation(qint64 allocation);

  signals:
    void allocationsHighlighted(const QVector<qint64>& allocations);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    // Whether the page shows the document's run.
    bool showsDocumentRun() const;
    void rebuild();
    void highlightNode(const StackTree* tree, int node);
    void updateInfo();
    void retranslateUi();

    RunDocument* m_state = nullptr;
    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const StackTree> m_topDown;
    std::shared_ptr<const StackTree> m_bottomUp;
    int64_t m_selectedEvent = -1;
    int64_t m_first = 0;
    int64_t m_last = -1;
    QComboBox* m_time = nullptr;
    QComboBox* m_colorBy = nullptr;
    QLabel* m_info = nullptr;
    FlameGraphView* m_flame = nullptr;
    QTabWidget* m_trees = nullptr;
    QTreeView* m_topDownView = nullptr;
    QTreeView* m_bottomUpView = nullptr;
    StackTreeModel* m_topDownModel = nullptr;
    StackTreeModel* m_bottomUpModel = nullptr;
    QSortFilterProxyModel* m_topDownProxy = nullptr;
    QSortFilterProxyModel* m_bottomUpProxy = nullptr;
    QSplitter* m_splitter = nullptr;
};

}  // namespace memscope
