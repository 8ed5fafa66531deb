#pragma once

#include "outcome.h"
#include "run/run_range.h"
#include "shell/main_window_actions.h"
#include "shell/module_filter_chip.h"
#include "shell/view_tabs.h"

#include <QMainWindow>
#include <QStringList>
#include <QVector>

#include <functional>
#include <memory>

class QAction;
class QDockWidget;
class QFrame;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QStackedWidget;
class QTabWidget;
class QToolButton;

namespace memscope {

class AllocationsPage;
class FilterChip;
class RunDocument;
class ComparePage;
class FlameGraphPage;
class OperatorPage;
class PlannerPage;
class JournalRecoverer;
class GrowthPage;
class ModulePage;
class RankRunController;
class RunController;
class RunLauncher;
class RunSession;
class RunStatusBar;
class SegmentPage;
class RunLoadProgress;
class SummaryPage;
class SweepPage;
class RunPanel;
class TabTraceFollower;
class TimelineLayout;
class TimelinePage;
class Trace;

// The application's top-level window: menus (MainWindowActions), tabs (ViewTabs), docks and the
// status bar (issue 30). The run panel (a dock) defines a training run, Run (F5) records it on a
// worker thread while the timeline grows live, Stop (Esc) ends it keeping what was recorded; the
// log dock shows the per-step lines and the status bar the step, time left and live peak. The
// open run belongs to the RunSession (models/), which opens runs (.memscope, PyTorch .pickle
// snapshots, run directories; menu, recent files, drag and drop, command line) without blocking
// the window and gives the RunDocument its trace; the pages follow the document. Views that need
// a run appear once one is open.
class MainWindow : public QMainWindow {
    Q_OBJECT

  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // The text of the About box, separate from the modal dialog so that it can be tested.
    static QString aboutText();

    // Opens a run (.memscope, a PyTorch memory snapshot .pickle, a run directory) through the
    // session and shows it; a big one loads on a worker thread with a progress bar and Cancel
    // in the status bar while the window keeps going. `range` loads only part of it. False when
    // it could not start or a small file failed (a message box names the file; whatever was
    // open stays); true when it is open or opening (session()->loadFinished() tells the end).
    bool openRun(const QString& path, const RunRange& range = RunRange());
    // Compares the open run with another run in the Compare tab (a run directory: its rank of
    // the number shown); the return value as openRun().
    bool compareWith(const QString& path);
    // Shows a trace that is already in memory (a finished run, a test's trace).
    void showTrace(std::shared_ptr<const Trace> trace, const QString& path);
    // Opens a multi-rank run directory (one .memscope per rank and manifest.json) showing
    // `rank` (the first readable one when it is -1 or unreadable) with the rank selector on the
    // timeline and the ranks side by side in the summary. Ranks whose file is missing (a killed
    // rank) are listed as such. The return value as openRun().
    bool openRunDirectory(const QString& path, int rank = -1, const RunRange& range = RunRange());
    // Shows another rank of the open run directory in every view; false when there is none.
    bool showRank(int rank);
    int rankCount() const;
    int currentRank() const;
    // Compares the shown rank with another rank of the same run in the Compare tab.
    bool compareWithRank(int rank);
    // Writes the open run as a .memscope file; false (and a message box) on failure.
    bool saveRun(const QString& path);
    // Renders the current view (or the timeline, for "timeline") to PNG or SVG by the suffix.
    // `scale` multiplies the pixels of a PNG; an empty size keeps the view's own.
    Outcome exportView(const QString& path, double scale = 1.0, const QSize& size = QSize());

    // The views by name ("timeline", then each tab's object name), for --screenshot; with
    // `all`, also those hidden until a run is open.
    QStringList viewNames(bool all = false) const;
    // Headless use (--screenshot): errors go to this function instead of message boxes.
    void setErrorReporter(std::function<void(const QString&)> reporter);
    // Shows the named view's tab; false when there is none (or it needs a run and none is open).
    bool selectView(const QString& name);

    QString currentRunPath() const;
    std::shared_ptr<const Trace> currentTrace() const;
    // The open run's owner: opening, ranks, live snapshots.
    RunSession* session() const { return m_session; }
    TimelinePage* timelinePage() const { return m_timeline_page; }
    // What the user looks at in the open run, shared by the timeline, the minimap and the
    // operator, allocation and summary pages (they follow it; MainWindow does not wire them to
    // each other). Its filterRangeChanged(first, last) is for range-taking views.
    RunDocument* viewState() const { return m_state; }
    // The bar above the tabs showing the active range filter.
    FilterChip* filterChip() const { return m_filter_chip; }
    // The bar under it naming the module the views are filtered to (a Modules tab row), with
    // the button that clears it; hidden while there is none.
    QFrame* moduleFilterChip() const { return m_module_chip; }
    QLabel* moduleFilterLabel() const { return m_module_chip->label(); }
    QToolButton* moduleFilterClearButton() const { return m_module_chip->clearButton(); }
    QAction* findAction() const { return m_actions->findAction(); }
    QAction* findNextAction() const { return m_actions->findNextAction(); }
    QAction* findPreviousAction() const { return m_actions->findPreviousAction(); }
    QAction* annotationsAction() const { return m_actions->annotationsAction(); }
    RunPanel* runPanel() const { return m_run_panel; }
    OperatorPage* operatorPage() const { return m_operator_page; }
    AllocationsPage* allocationsPage() const { return m_allocations_page; }
    SummaryPage* summaryPage() const { return m_summary_page; }
    SegmentPage* segmentPage() const { return m_segment_page; }
    FlameGraphPage* flameGraphPage() const { return m_flame_graph_page; }
    ModulePage* modulePage() const { return m_module_page; }
    GrowthPage* growthPage() const { return m_growth_page; }
    ComparePage* comparePage() const { return m_compare_page; }
    SweepPage* sweepPage() const { return m_sweep_page; }
    PlannerPage* plannerPage() const { return m_planner_page; }
    RunController* runController() const;
    // Runs of several processes (the run panel's Processes > 1): memscope-cli's ranks.
    RankRunController* rankRunController() const;
    QTabWidget* tabs() const { return m_tabs; }
    QPlainTextEdit* logView() const { return m_log; }
    QStringList recentFiles() const;
    // Journals of runs that died while recording (JournalRecoverer::unfinishedJournals).
    QStringList unfinishedJournals(const QString& dir = QString()) const;
    // Rebuilds each journal's run file on a worker, deletes the journal, adds the runs to the
    // recent files and opens the newest; reports what was recovered in the log.
    void recoverJournals(const QStringList& journals);

  public slots:
    void showAbout();
    // File > Open: asks for a run file, then openRun().
    void openRunDialog();
    // File > Open Part of Run: asks for a run file and a range (A:B, see RunRange), then
    // openRun().
    void openRunRangeDialog();
    void saveRunDialog();
    void exportViewDialog();
    // File > Compare With: asks for a second run, then compareWith().
    void compareWithDialog();
    // Run > Run (F5): validates the run panel and starts recording.
    void startRun();
    // Run > Stop (Esc).
    void stopRun();
    // At start: when runs died unfinished, asks (non-modal) whether to recover them.
    void offerRecovery();

  protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    void createCentralWidget();
    void createDocks();
    void createStatusBar();
    // Sets every user-visible text; runs again on QEvent::LanguageChange.
    void retranslateUi();
    void restoreWindowState();
    void saveWindowState() const;
    void updateStatus();
    // Enables the actions (MainWindowActions) and the run panel's buttons for what goes on.
    void updateActions();
    void addRecentFile(const QString& path);
    void appendLog(const QString& line);
    // A message box, or the error reporter when one is set.
    void reportError(const QString& title, const QString& message);
    QWidget* currentExportWidget() const;
    // A single-process or a multi-process run is going.
    bool runActive() const;
    void connectSession();
    // Loads the LibTorch part now, or once the file being opened has loaded.
    void loadTorchPartWhenIdle();
    // The status bar and the log follow the runs being recorded.
    void connectLauncher();
    // Starts opening PATH (rank of a run directory) unless a run is being recorded.
    bool startOpening(const QString& path, const RunRange& range, int rank);
    // The session's run changed: title, tabs, status, actions.
    void onRunChanged();
    // The session's ranks changed: the timeline's selector, the summary's rows, the menu.
    void onRanksChanged();
    void createAnalysisTabs();
    // A tab for `page` (ViewTabs::addPage); `fill` gives the page the document's run when the
    // tab is shown (TabTraceFollower), none for pages that need no run.
    void addTab(QWidget* page, const QString& name, bool needs_run,
                std::function<void(const std::shared_ptr<const Trace>&)> fill = nullptr);

    MainWindowActions* m_actions = nullptr;
    RunDocument* m_state = nullptr;
    FilterChip* m_filter_chip = nullptr;
    ModuleFilterChip* m_module_chip = nullptr;
    QLabel* m_status_label = nullptr;
    RunStatusBar* m_run_status = nullptr;
    RunLoadProgress* m_load_progress = nullptr;
    ViewTabs* m_tabs = nullptr;
    QStackedWidget* m_timeline_stack = nullptr;
    QWidget* m_placeholder = nullptr;
    TimelinePage* m_timeline_page = nullptr;
    OperatorPage* m_operator_page = nullptr;
    AllocationsPage* m_allocations_page = nullptr;
    SummaryPage* m_summary_page = nullptr;
    SegmentPage* m_segment_page = nullptr;
    FlameGraphPage* m_flame_graph_page = nullptr;
    ModulePage* m_module_page = nullptr;
    GrowthPage* m_growth_page = nullptr;
    ComparePage* m_compare_page = nullptr;
    SweepPage* m_sweep_page = nullptr;
    PlannerPage* m_planner_page = nullptr;
    QDockWidget* m_run_dock = nullptr;
    QDockWidget* m_log_dock = nullptr;
    RunPanel* m_run_panel = nullptr;
    QPlainTextEdit* m_log = nullptr;
    RunLauncher* m_launcher = nullptr;
    RunSession* m_session = nullptr;
    JournalRecoverer* m_recoverer = nullptr;
    void compareTraces(std::shared_ptr<const Trace> other, const QString& other_name);
    std::function<void(const QString&)> m_error_reporter;
};

}  // namespace memscope
