#pragma once

#include <QWidget>

#include <cstdint>
#include <memory>

class QLabel;
class QLineEdit;
class QTabWidget;
class QTimer;
class QTreeView;

namespace memscope {

class AllocationListModel;
class MemoryEventsModel;
class OperatorFilterProxy;
class RunDocument;
class Trace;

// The allocations tab: every allocation largest first, and every alloc/free event in time
// order, in two tabs with one search box (category, phase, module, operator). Clicking a row
// emits its allocation (for the timeline to pin); showAllocation() selects the allocation's row
// in both lists.
class AllocationsPage : public QWidget {
    Q_OBJECT

  public:
    explicit AllocationsPage(QWidget* parent = nullptr);
    // Following `document` (setViewState).
    AllocationsPage(RunDocument* document, QWidget* parent);
    ~AllocationsPage() override;

    void setTrace(std::shared_ptr<const Trace> trace);
    // Follows a shared view state: with a range filter (while this page shows the state's run)
    // the allocation list holds the allocations it selects and the event list the events in
    // its range; the state's pinned allocation is selected here.
    void setViewState(RunDocument* state);

    AllocationListModel* allocationModel() const { return m_allocations; }
    MemoryEventsModel* eventsModel() const { return m_events; }
    OperatorFilterProxy* allocationProxy() const { return m_allocation_proxy; }
    OperatorFilterProxy* eventsProxy() const { return m_events_proxy; }
    QTreeView* allocationView() const { return m_allocation_view; }
    QTreeView* eventsView() const { return m_events_view; }
    QLineEdit* searchEdit() const { return m_search; }
    QTabWidget* tabs() const { return m_tabs; }
    // The line under the lists: rows shown of the run's allocations and alloc/free events.
    QString statusText() const;
    // Applies the search text now (typing applies it after a short pause).
    void applySearch();

  public slots:
    void showAllocation(qint64 allocation);

  signals:
    void allocationSelected(qint64 allocation);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void rowActivated(const QModelIndex& proxy_index);
    void retranslateUi();
    void followFilter();
    // Whether the lists show the document's run (the lists hold the run, the page does not).
    bool showsDocumentRun() const;

    RunDocument* m_state = nullptr;
    AllocationListModel* m_allocations = nullptr;
    MemoryEventsModel* m_events = nullptr;
    OperatorFilterProxy* m_allocation_proxy = nullptr;
    OperatorFilterProxy* m_events_proxy = nullptr;
    QTreeView* m_allocation_view = nullptr;
    QTreeView* m_events_view = nullptr;
    QTabWidget* m_tabs = nullptr;
    QLineEdit* m_search = nullptr;
    QLabel* m_search_label = nullptr;
    QLabel* m_status = nullptr;
    QTimer* m_search_timer = nullptr;
    bool m_showing = false;
};

}  // namespace memscope
