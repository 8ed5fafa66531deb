#pragma once

#include "analysis/operator_table.h"
#include "outcome.h"

#include <QVector>
#include <QWidget>

#include <cstdint>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeView;

namespace memscope {

class OperatorFilterProxy;
class OperatorTableModel;
class Trace;

// The operator tab: the operator table grouped by operator name or as a module tree, a search
// box over names and input shapes, and CSV export of what is shown. Selecting a row emits the
// allocations made inside it (for the timeline to highlight); showAllocation() selects the row
// an allocation is attributed to. Large traces are aggregated off the GUI thread.
class RunDocument;

class OperatorPage : public QWidget {
    Q_OBJECT

  public:
    // Traces with more events than this are aggregated on a worker thread.
    static constexpr size_t kAsyncEvents = 200000;

    explicit OperatorPage(QWidget* parent = nullptr);
    // Following `document` (setViewState).
    OperatorPage(RunDocument* document, QWidget* parent);
    ~OperatorPage() override;

    void setTrace(std::shared_ptr<const Trace> trace);
    // Follows a shared view state: its range filter (while this page shows the state's run)
    // limits the table to the rows with allocations the filter selects, a selected row's
    // allocations become its highlights, and its pinned allocation selects that allocation's row.
    void setViewState(RunDocument* state);
    void setGrouping(OperatorTable::Grouping grouping);
    OperatorTable::Grouping grouping() const { return m_grouping; }
    bool isBuilding() const { return m_pending; }

    // Writes the rows shown (filtered, in the shown order, tree rows as paths) as CSV with raw
    // numbers. Returns false and sets *error when the file cannot be written.
    Outcome exportCsv(const QString& path) const;

    OperatorTableModel* model() const { return m_model; }
    OperatorFilterProxy* proxy() const { return m_proxy; }
    QTreeView* view() const { return m_view; }
    QLineEdit* searchEdit() const { return m_search; }
    QComboBox* groupingCombo() const { return m_grouping_combo; }

  public slots:
    // Selects (and scrolls to) the row an allocation is attributed to; -1 clears the selection.
    void showAllocation(qint64 allocation);

  signals:
    void allocationsHighlighted(const QVector<qint64>& allocations);
    void tableReady();

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void rebuild();
    void adoptTable(std::shared_ptr<const Trace> trace, std::shared_ptr<const OperatorTable> table);
    void onSelectionChanged();
    void exportClicked();
    void updateStatus();
    void followFilter();
    void retranslateUi();
    // Whether the page shows the document's run.
    bool showsDocumentRun() const;

    // The run shown: the document's (or the caller's), which keeps it alive; the table's model
    // holds it once the table is built.
    std::weak_ptr<const Trace> m_trace;
    RunDocument* m_state = nullptr;
    OperatorTable::Grouping m_grouping = OperatorTable::Grouping::ByOperator;
    OperatorTableModel* m_model = nullptr;
    OperatorFilterProxy* m_proxy = nullptr;
    QTreeView* m_view = nullptr;
    QLineEdit* m_search = nullptr;
    QComboBox* m_grouping_combo = nullptr;
    QPushButton* m_export = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_search_label = nullptr;
    QLabel* m_grouping_label = nullptr;
    bool m_pending = false;
    bool m_showing = false;  // showAllocation selecting: no highlight signal back
    uint64_t m_generation = 0;
};

}  // namespace memscope
