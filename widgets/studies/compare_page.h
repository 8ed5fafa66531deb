#pragma once

#include "analysis/step_alignment.h"
#include "outcome.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QSplitter;
class QStackedWidget;
class QTableView;
class QTableWidget;
class QTabWidget;

namespace memscope {

class ComparisonModel;
class FlameGraphView;
class OverlayChart;
class StackDiffModel;
class TimelineLayout;
class TimelineView;
class Trace;

// Two runs side by side: their active memory timelines stacked (A above B) with synchronized
// visible ranges (zooming or panning one moves the other to the same steps: StepAlignment), and
// the difference table (peaks, categories at the peak, modules, operators) below, sortable, with
// CSV export; beside it the per-stack difference of the bytes alive at each run's peak
// (StackDiff) as a flame graph of the difference and as a table sorted by the difference. Layouts
// are computed off the GUI thread; layoutsReady() says when both are shown.
//
// "Overlay on one axis" (issue 53) shows instead both runs' totals on A's axis, B aligned to A's
// steps (OverlayChart), and below it where they differ at the picked point: A's step and phase
// there, each run's highest point in that step's phase (AlignedDifference), by category, module
// and the place that made the bytes. Until a click it is each run's peak.
class ComparePage : public QWidget {
    Q_OBJECT

  public:
    explicit ComparePage(QWidget* parent = nullptr);
    ~ComparePage() override;

    void setRuns(std::shared_ptr<const Trace> a, std::shared_ptr<const Trace> b, QString nameA,
                 QString nameB);
    bool isLayoutPending() const { return m_pending; }
    // Writes the difference table as CSV (plain numbers); fails with why (no message box).
    Outcome exportCsv(const QString& path);

    TimelineView* viewA() const { return m_viewA; }
    TimelineView* viewB() const { return m_viewB; }
    ComparisonModel* model() const { return m_model; }
    QSortFilterProxyModel* proxyModel() const { return m_proxy; }
    QTableView* tableView() const { return m_table; }
    QCheckBox* syncCheckBox() const { return m_sync; }
    StackDiffModel* stackDiffModel() const { return m_stackModel; }
    QTableView* stackDiffView() const { return m_stackTable; }
    FlameGraphView* differenceFlameGraph() const { return m_diffFlame; }
    QTabWidget* detailTabs() const { return m_details; }
    const StepAlignment& alignment() const { return m_alignment; }
    QCheckBox* overlayCheckBox() const { return m_overlay; }
    OverlayChart* overlayChart() const { return m_overlayChart; }
    QLabel* overlayLabel() const { return m_overlayLabel; }
    QTableWidget* overlayTable() const { return m_overlayTable; }
    // Shows the difference at point x of A's axis (-1: each run's peak).
    void showDifferenceAt(double x);

  signals:
    void layoutsReady();

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void adoptLayouts(std::shared_ptr<const Trace> a, std::shared_ptr<TimelineLayout> layout_a,
                      std::shared_ptr<const Trace> b, std::shared_ptr<TimelineLayout> layout_b);
    void follow(bool from_a, double x0, double x1);
    void updateMode();
    void retranslateUi();

    bool m_comparing = false;  // two runs given (their timelines hold them once laid out)
    QString m_nameA;
    QString m_nameB;
    TimelineView* m_viewA = nullptr;
    TimelineView* m_viewB = nullptr;
    QLabel* m_labelA = nullptr;
    QLabel* m_labelB = nullptr;
    QCheckBox* m_sync = nullptr;
    QPushButton* m_exportButton = nullptr;
    QSplitter* m_splitter = nullptr;
    ComparisonModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    QTabWidget* m_details = nullptr;
    StackDiffModel* m_stackModel = nullptr;
    QSortFilterProxyModel* m_stackProxy = nullptr;
    QTableView* m_stackTable = nullptr;
    FlameGraphView* m_diffFlame = nullptr;
    QLabel* m_diffLegend = nullptr;
    QCheckBox* m_overlay = nullptr;
    QStackedWidget* m_modes = nullptr;
    OverlayChart* m_overlayChart = nullptr;
    QLabel* m_overlayLabel = nullptr;
    QTableWidget* m_overlayTable = nullptr;
    StepAlignment m_alignment;
    bool m_pending = false;
    bool m_following = false;  // a synchronized move in progress: do not echo it back
    uint64_t m_generation = 0;
};

}  // namespace memscope
