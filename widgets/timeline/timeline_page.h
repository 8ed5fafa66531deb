#pragma once

#include "timeline/rank_lanes_view.h"

#include <QWidget>

#include <cstdint>
#include <memory>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QSplitter;
class QStackedWidget;
class QTimer;
class QToolButton;

namespace memscope {

class RunDocument;
class SearchBar;
class StackPane;
class TimelineLayout;
class TimelineMinimap;
class TimelineView;
class Trace;

// The timeline tab: a row of view options (colour by, plot mode, x axis, annotations, search,
// reset), the active
// memory timeline with a minimap of the whole run under it, its detail controls (a slider and an
// absolute count, like memory_viz, plus a percentage) and the stack pane of the pinned
// allocation, in a splitter. It only draws: the run document lays the run out (off the GUI thread
// for a large run); layoutReady() says when the view has its layout.
class TimelinePage : public QWidget {
    Q_OBJECT

  public:
    // With its own run document, or following `state` (MainWindow's, shared with the other
    // pages): the view, the minimap, the stack pane and the search bar follow it, and setTrace
    // gives it the run and, once laid out, its layout.
    explicit TimelinePage(QWidget* parent = nullptr);
    TimelinePage(RunDocument* state, QWidget* parent);
    ~TimelinePage() override;

    void setTrace(std::shared_ptr<const Trace> trace);
    // A snapshot of a run still being recorded, its layout already computed by the caller (off
    // the GUI thread; nullptr: laid out here). The first call, or one whose trace is not a
    // continuation of the shown one (a different start or fewer events), shows it like
    // setTrace; later calls update the view in place (TimelineView::updateTrace), keeping the
    // window, the detail and the pinned allocation in the stack pane.
    void setLiveTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<TimelineLayout> layout);
    bool isLayoutPending() const { return m_pending; }
    // The ranks of a multi-process run (one label each, index = rank) and the one shown (the
    // document's rank; -1 for an empty list); the selector is hidden for an empty list
    // (single-process runs). Choosing a rank in the selector sets the document's rank.
    void setRanks(const QStringList& labels, int current);
    QComboBox* rankCombo() const { return m_rankCombo; }
    // Every rank of an opened run directory for the all-ranks view (issue 40); empty: none (a
    // single run, a live run), which hides the "All ranks" toggle and shows the detailed view.
    void setRankRuns(const QVector<RankLanesView::Run>& runs);
    // The "All ranks" toggle next to the rank selector: the lanes view instead of the detailed
    // timeline (and its minimap and detail controls).
    QToolButton* allRanksButton() const { return m_allRanks; }
    void showAllRanks(bool on);
    bool showsAllRanks() const;
    RankLanesView* rankLanes() const { return m_lanes; }

    TimelineView* view() const { return m_view; }
    RunDocument* viewState() const { return m_state; }
    SearchBar* searchBar() const { return m_search; }
    // The "Annotations" toggle (checkable) next to the view options.
    QToolButton* annotationsButton() const { return m_annotations; }
    TimelineMinimap* minimap() const { return m_minimap; }
    QComboBox* colorModeCombo() const { return m_colorCombo; }
    QComboBox* plotModeCombo() const { return m_plotCombo; }
    QComboBox* timeAxisCombo() const { return m_axisCombo; }
    QPushButton* resetButton() const { return m_reset; }
    StackPane* stackPane() const { return m_stackPane; }
    QSlider* detailSlider() const { return m_slider; }
    QSpinBox* detailSpinBox() const { return m_count; }
    QDoubleSpinBox* detailPercentSpinBox() const { return m_percent; }
    QLabel* detailLabel() const { return m_label; }

  signals:
    void layoutReady();

  protected:
    void changeEvent(QEvent* event) override;

  private:
    // Shows the document's trace (a newer snapshot of a live run in place), with the layout
    // that came with it or laid out here (large traces on a worker thread).
    void followTrace();
    // Adopts a layout given to the document for the trace shown.
    void followLayout();
    void adoptLayout(std::shared_ptr<TimelineLayout> layout);
    void syncDetailControls();
    void retranslateUi();
    // Controls set a wanted detail; the timer applies the latest one, so dragging the slider
    // over a million allocations recomputes once per event-loop turn, not once per value.
    void requestDetail(int64_t n);

    std::weak_ptr<const Trace> m_trace;  // the document's run the view shows (the view holds it)
    RunDocument* m_state = nullptr;
    SearchBar* m_search = nullptr;
    QToolButton* m_annotations = nullptr;
    TimelineView* m_view = nullptr;
    TimelineMinimap* m_minimap = nullptr;
    QLabel* m_rankLabel = nullptr;
    QComboBox* m_rankCombo = nullptr;
    QToolButton* m_allRanks = nullptr;
    QStackedWidget* m_viewStack = nullptr;  // the detailed timeline, or the lanes of all ranks
    QWidget* m_detailed = nullptr;
    RankLanesView* m_lanes = nullptr;
    QLabel* m_colorLabel = nullptr;
    QComboBox* m_colorCombo = nullptr;
    QLabel* m_plotLabel = nullptr;
    QComboBox* m_plotCombo = nullptr;
    QLabel* m_axisLabel = nullptr;
    QComboBox* m_axisCombo = nullptr;
    QPushButton* m_reset = nullptr;
    StackPane* m_stackPane = nullptr;
    QSplitter* m_splitter = nullptr;
    QLabel* m_label = nullptr;
    QLabel* m_countLabel = nullptr;
    QSlider* m_slider = nullptr;
    QSpinBox* m_count = nullptr;
    QDoubleSpinBox* m_percent = nullptr;
    QTimer* m_detailTimer = nullptr;
    int64_t m_wantedDetail = -1;
    bool m_followingTrace = false;  // followTrace() asks the document for the layout
    bool m_pending = false;
    bool m_live = false;  // the trace shown came from setLiveTrace
};

}  // namespace memscope
