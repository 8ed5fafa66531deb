#pragma once

#include <QFutureWatcher>
#include <QString>
#include <QVector>
#include <QWidget>

#include "explain/module_table.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

class QLabel;
class QSortFilterProxyModel;
class QToolButton;
class QTreeView;

namespace memscope {

class ModuleTreeModel;
class RunDocument;
class Trace;

// The Modules tab (issue 41): what each nn.Module holds at one moment of the run (ModuleTable:
// parameters, gradients, optimizer state, activations, temporaries, backward, other; its forward
// and backward peaks and the bytes saved for backward), as a tree sorted by what it holds,
// expanded two levels, under a line naming the moment and one naming the modules that hold the
// most. The moment is the peak of allocated memory, or the allocation pinned on the timeline
// (its alloc event) while the page shows the run document's run; unpinning goes back to the
// peak. A run without module frames gets one sentence saying so instead of the table.
//
// Clicking a row (or Return on it) filters the views to that module: its allocations (those
// ModuleTable attributes to it or to a sub-module, ModuleTable::modulesOfAllocations) become the
// run document's highlighted allocations, which the timeline draws over the rest dimmed, and
// its module filter (RunDocument::setModuleFilter), to which the allocations tab and the flame
// graph restrict what they list and aggregate; the page and the window show the filter with a
// button that clears it. Clicking the row again
// clears it too, and so does any other highlight (a search, an operator row).
//
// Runs with more than asyncEvents() events compute on a worker thread (the trace is immutable and
// shared); a result whose run or moment changed meanwhile is dropped, and tableReady() says when
// the table shown is current.
class ModulePage : public QWidget {
    Q_OBJECT

  public:
    // Runs with more events than this compute their tables on a worker thread.
    static constexpr size_t kAsyncEvents = 200000;

    explicit ModulePage(QWidget* parent = nullptr);
    // Following `document` (setViewState).
    ModulePage(RunDocument* document, QWidget* parent);
    ~ModulePage() override;

    // A run (nullptr: none). The document's pinned allocation picks the moment at once when it
    // is the document's run.
    void setTrace(std::shared_ptr<const Trace> trace);
    const Trace* trace() const { return m_trace.lock().get(); }
    // Follows a run document (nullptr: none): its pinned allocation, and its highlights for the
    // module filter.
    void setViewState(RunDocument* document);
    // Shows the table just after event `event` (-1: at the peak).
    void showAtEvent(int64_t event);
    // The moment asked for (-1: the peak).
    int64_t requestedEvent() const { return m_requested; }

    // The table shown (nullptr while none, or while it is computed on a worker).
    const ModuleTable* table() const { return m_table.get(); }
    bool isComputing() const { return m_pending; }
    // Whether the run shown names modules (ModuleTable::available).
    bool hasModules() const { return m_available; }
    void setAsyncEvents(size_t events) { m_asyncEvents = events; }
    size_t asyncEvents() const { return m_asyncEvents; }

    // The module the views are filtered to ("" for none), and the allocations it selects.
    QString moduleFilter() const { return m_filter; }
    const QVector<qint64>& filteredAllocations() const { return m_filtered; }

    QLabel* momentLabel() const { return m_moment; }
    QLabel* dominantLabel() const { return m_dominant; }
    QLabel* messageLabel() const { return m_message; }
    QLabel* filterLabel() const { return m_filterLabel; }
    QToolButton* clearFilterButton() const { return m_clearFilter; }
    QTreeView* view() const { return m_view; }
    ModuleTreeModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }

  public slots:
    // Filters the views to module `path` (its allocations and its sub-modules'); "" clears.
    void setModuleFilter(const QString& path);
    void clearModuleFilter() { setModuleFilter(QString()); }
    // What a click on a row does: filters to its module, or clears the filter when it is that
    // module's already.
    void toggleModuleFilter(const QModelIndex& proxy_index);

  signals:
    // The table shown is that of the current run and moment.
    void tableReady();
    // The module the views are filtered to changed ("" when cleared).
    void moduleFilterChanged(const QString& path);
    void allocationsHighlighted(const QVector<qint64>& allocations);

  protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    // The module of every allocation, each path once.
    // Per allocation: its path's index, -1 for none.
    using ModuleIndex = ModuleTable::AllocationModules;
    struct Result {
        std::shared_ptr<const ModuleTable> table;
        std::shared_ptr<const ModuleIndex> modules;  // null when it was not asked for
    };
    static Result computeTable(const Trace& trace, int64_t event, bool with_modules);

    bool showsDocumentRun() const;
    // The pinned allocation's alloc event (-1 for none, or not the document's run).
    int64_t pinnedEvent() const;
    void recompute();
    void adopt(Result result);
    // Each column as wide as its title and its cells.
    void fitColumns();
    void updateTexts();
    void updateFilterLabel();
    // The filter is dropped without touching the document's highlights (someone else set them).
    void dropFilter();
    void retranslateUi();

    RunDocument* m_state = nullptr;
    std::weak_ptr<const Trace> m_trace;  // the document's (or the caller's): not kept alive here
    std::shared_ptr<const ModuleTable> m_table;
    std::shared_ptr<const ModuleIndex> m_modules;  // of m_trace
    bool m_available = false;
    int64_t m_requested = -1;
    size_t m_asyncEvents = kAsyncEvents;
    bool m_pending = false;
    uint64_t m_generation = 0;         // a worker's result for an older recompute is dropped
    uint64_t m_watcherGeneration = 0;  // the recompute the watched future is for
    QFutureWatcher<Result>* m_watcher = nullptr;
    QString m_filter;
    QVector<qint64> m_filtered;

    QLabel* m_message = nullptr;
    QWidget* m_content = nullptr;
    QLabel* m_moment = nullptr;
    QLabel* m_dominant = nullptr;
    QWidget* m_filterBar = nullptr;
    QLabel* m_filterLabel = nullptr;
    QToolButton* m_clearFilter = nullptr;
    QTreeView* m_view = nullptr;
    ModuleTreeModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
};

}  // namespace memscope
