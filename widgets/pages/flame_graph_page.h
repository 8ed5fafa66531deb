#pragma once

#include <QFutureWatcher>
#include <QVector>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <utility>

class QComboBox;
class QCheckBox;
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
// and pinned allocation drive the range and "the selected time" while the page shows its run,
// and its module filter (the Modules tab's row) restricts the trees to that module's allocations.
// Runs with more than asyncEvents() events build their trees on a worker thread (the trace is
// immutable and shared); a result whose run, range or time changed meanwhile is dropped, and
// treesReady() says when the trees shown are current.
class FlameGraphPage : public QWidget {
    Q_OBJECT

  public:
    enum class TimeChoice { Peak, Selected };
    // Runs with more events than this build their trees on a worker thread.
    static constexpr size_t kAsyncEvents = 200000;

    explicit FlameGraphPage(QWidget* parent = nullptr);
    // Following `document` (setViewState).
    FlameGraphPage(RunDocument* document, QWidget* parent);
    ~FlameGraphPage() override;

    // A run; the document's filter and pinned allocation apply at once when it is the
    // document's run.
    void setTrace(std::shared_ptr<const Trace> trace);
    const Trace* trace() const { return m_trace.lock().get(); }
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
    // Whether trees are being built on a worker (topDown() and bottomUp() are null meanwhile).
    bool isBuildPending() const { return m_pending; }
    // The event count above which trees are built on a worker (kAsyncEvents; tests lower it).
    void setAsyncEvents(size_t events) { m_asyncEvents = events; }
    size_t asyncEvents() const { return m_asyncEvents; }
    int64_t rangeFirst() const { return m_first; }
    int64_t rangeLast() const { return m_last; }

    // "Raw frames": an imported snapshot's frames as the file lists them (interpreter, libc,
    // dispatcher and allocator frames included) instead of the cleaned stacks. Shown only for a
    // run that has them (Trace::hasRawStacks).
    QCheckBox* rawFramesBox() const { return m_rawFrames; }
    QCheckBox* mergeLinesBox() const { return m_mergeLines; }
    bool showsRawFrames() const;

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
    // The trees shown are those of the current run, range and time (after every rebuild,
    // at once for small runs, when the worker is done for large ones).
    void treesReady();

  protected:
    void changeEvent(QEvent* event) override;

  private:
    // Whether the page shows the document's run.
    bool showsDocumentRun() const;
    void rebuild();
    using Trees = std::pair<std::shared_ptr<const StackTree>, std::shared_ptr<const StackTree>>;
    void adoptTrees(Trees trees);
    void highlightNode(const StackTree* tree, int node);
    void updateInfo();
    void retranslateUi();

    RunDocument* m_state = nullptr;
    // The run shown: the document's (or the caller's), which keeps it alive; the page keeps the
    // stack trees it built from it.
    std::weak_ptr<const Trace> m_trace;
    std::shared_ptr<const StackTree> m_topDown;
    std::shared_ptr<const StackTree> m_bottomUp;
    int64_t m_selectedEvent = -1;
    int64_t m_first = 0;
    int64_t m_last = -1;
    // The document's module filter (RunDocument::moduleMask): only its allocations count.
    std::shared_ptr<const std::vector<uint8_t>> m_only;
    size_t m_asyncEvents = kAsyncEvents;
    bool m_pending = false;
    uint64_t m_generation = 0;         // a worker's result for an older rebuild is dropped
    uint64_t m_watcherGeneration = 0;  // the rebuild the watched future is for
    QFutureWatcher<Trees>* m_watcher = nullptr;
    QComboBox* m_time = nullptr;
    QComboBox* m_colorBy = nullptr;
    QCheckBox* m_rawFrames = nullptr;
    // StackTreeOptions::merge_lines; checked by default for a Python program's recording (its
    // entry one root), unchecked for the rest, set again when the kind of run changes.
    QCheckBox* m_mergeLines = nullptr;
    bool m_mergeLinesForProgram = false;
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
