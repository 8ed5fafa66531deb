#include "shell/main_window.h"

#include "common/app_settings.h"
#include "common/byte_format.h"
#include "common/filter_chip.h"
#include "common/search_bar.h"
#include "journal_recoverer.h"
#include "layout/timeline_layout.h"
#include "pages/allocations_page.h"
#include "pages/flame_graph_page.h"
#include "pages/growth_page.h"
#include "pages/module_page.h"
#include "pages/operator_page.h"
#include "pages/segment_page.h"
#include "pages/summary_page.h"
#include "run_document.h"
#include "run_session.h"
#include "runs/run_controller.h"
#include "runs/run_launcher.h"
#include "runs/torch_part_loader.h"
#include "shell/about_box.h"
#include "shell/export_dialog.h"
#include "shell/recent_files_menu.h"
#include "shell/recovery_offer.h"
#include "shell/run_file_dialogs.h"
#include "shell/run_load_progress.h"
#include "shell/run_panel.h"
#include "shell/run_status_bar.h"
#include "shell/tab_trace_follower.h"
#include "shell/view_exporter.h"
#include "studies/compare_page.h"
#include "studies/planner_page.h"
#include "studies/sweep_page.h"
#include "timeline/timeline_page.h"
#include "timeline/timeline_view.h"
#include "trace/trace.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QColor>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEvent>
#include <QFileInfo>
#include <QFont>
#include <QFontDatabase>
#include <QFrame>
#include <QHBoxLayout>
#include <QIcon>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPalette>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>
#include <QWidget>

#include <algorithm>
#include <cstdint>
#include <memory>

#include "memscope_version.h"

namespace memscope {
namespace {

constexpr auto k_geometry_key = "main_window/geometry";
constexpr auto k_state_key = "main_window/state";
constexpr auto k_export_dir_key = "main_window/last_export_dir";
// After the window shows: when the LibTorch part starts loading in the background.
constexpr int k_torch_part_delay_ms = 1000;

bool acceptsDrop(const QMimeData* mime) {
    if (!mime || !mime->hasUrls()) {
        return false;
    }
    for (const QUrl& url : mime->urls()) {
        if (url.isLocalFile()) {
            return true;
        }
    }
    return false;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName(QStringLiteral("main_window"));
    // A product name, not a phrase: the same in every language.
    setWindowTitle(QStringLiteral(MEMSCOPE_NAME));
    setWindowIcon(QIcon(QStringLiteral(":/icons/memscope.svg")));
    setAcceptDrops(true);

    m_state = new RunDocument(this);
    m_session = new RunSession(m_state, this);
    m_recoverer = new JournalRecoverer(this);
    m_launcher = new RunLauncher(m_session, JournalRecoverer::runsDirectory(), this);
    createActions();
    createMenus();
    createCentralWidget();
    createDocks();
    createStatusBar();
    connectSession();
    connectLauncher();
    retranslateUi();
    restoreWindowState();
    updateActions();
    // The LibTorch part (runs, the GPUs in the run panel, measured peaks) loads on a worker a
    // moment after the window shows, so that opening and drawing a run never waits for it and
    // the first Run does not either.
    QTimer::singleShot(k_torch_part_delay_ms, this, [] { TorchPartLoader::loadInBackground(); });
}

void MainWindow::connectSession() {
    connect(m_session, &RunSession::loadingChanged, this, [this](bool loading) {
        if (loading) {
            QApplication::setOverrideCursor(Qt::BusyCursor);
        } else {
            QApplication::restoreOverrideCursor();
            m_load_progress->finish();
            updateStatus();
        }
        updateActions();
    });
    // Only loads on a worker report progress: the bar and Cancel show for them.
    connect(m_session, &RunSession::progressChanged, this, [this](double fraction) {
        if (!m_load_progress->isVisibleTo(this)) {
            m_load_progress->start(true);
        }
        m_load_progress->setFraction(fraction);
    });
    connect(m_load_progress, &RunLoadProgress::cancelRequested, m_session, &RunSession::cancel);
    connect(m_session, &RunSession::opened, this, [this](const QString& path, const QString& what) {
        addRecentFile(path);
        appendLog(tr("Opened %1: %2.").arg(QDir::toNativeSeparators(path), what));
    });
    connect(m_session, &RunSession::cancelled, this, [this](const QString& path) {
        appendLog(tr("Opening %1 cancelled.").arg(QDir::toNativeSeparators(path)));
    });
    connect(m_session, &RunSession::failed, this,
            [this](const QString& message) { reportError(tr("Cannot Open Run"), message); });
    connect(m_session, &RunSession::logMessage, this, &MainWindow::appendLog);
    connect(m_session, &RunSession::compareReady, this, &MainWindow::compareTraces);
    connect(m_session, &RunSession::runChanged, this, &MainWindow::onRunChanged);
    connect(m_session, &RunSession::ranksChanged, this, &MainWindow::onRanksChanged);
    connect(m_recoverer, &JournalRecoverer::recovered, this,
            [this](const QStringList& runs, const QStringList& lines) {
                for (const QString& line : lines) {
                    appendLog(line);
                }
                for (const QString& run : runs) {
                    addRecentFile(run);
                }
                if (!runs.isEmpty() && !runActive() && !m_session->isLoading()) {
                    openRun(runs.last());
                }
            });
}

void MainWindow::connectLauncher() {
    connect(m_launcher, &RunLauncher::logMessage, this, &MainWindow::appendLog);
    connect(m_launcher, &RunLauncher::kept, this, &MainWindow::addRecentFile);
    connect(m_launcher, &RunLauncher::started, m_run_status, &RunStatusBar::runStarted);
    connect(m_launcher, &RunLauncher::started, this, [this] {
        m_tabs->setCurrentWidget(m_timeline_stack);
        updateActions();
        updateStatus();
    });
    connect(m_launcher, &RunLauncher::stepped, m_run_status, &RunStatusBar::stepped);
    connect(m_launcher, &RunLauncher::rankLabelsChanged, this,
            [this](const QStringList& labels, int shown) {
                // Each step renames the ranks: in place, so that an open selector stays open.
                QComboBox* combo = m_timeline_page->rankCombo();
                if (combo->count() == labels.size() && combo->isVisible()) {
                    for (int r = 0; r < labels.size(); ++r) {
                        combo->setItemText(r, labels[r]);
                    }
                    m_state->setRank(shown);  // the selector follows the document
                    return;
                }
                m_timeline_page->setRanks(labels, shown);
            });
    connect(m_launcher, &RunLauncher::finished, this,
            [this](const QString& status, const QString& error) {
                m_run_status->runFinished(status);
                if (!error.isEmpty()) {
                    m_run_panel->showProblem(error);
                }
                if (m_state->trace() && m_state->layout()) {
                    m_run_status->showPeak(m_state->layout()->peakBytes());
                }
                updateActions();
                updateStatus();
            });
    // "Same settings as the open run" copies the open run's configuration where it is known.
    connect(m_state, &RunDocument::traceChanged, this, [this] {
        const auto trace = m_state->trace();
        if (m_run_panel != nullptr) {
            m_run_panel->setOpenRun(trace ? &trace->meta : nullptr);
        }
    });
    // The live peak, until the first step reports one.
    connect(m_state, &RunDocument::layoutChanged, this, [this] {
        if (m_launcher->isActive() && !m_run_status->hasPeak() && m_state->layout()) {
            m_run_status->showPeak(m_state->layout()->peakBytes());
        }
    });
}

MainWindow::~MainWindow() = default;

QString MainWindow::aboutText() {
    return AboutBox::text();
}

void MainWindow::showAbout() {
    AboutBox::show(this);
}

// --- files

void MainWindow::openRunDialog() {
    if (const auto path = RunFileDialogs::openRun(this)) {
        openRun(*path);
    }
}

void MainWindow::openRunRangeDialog() {
    const auto part = RunFileDialogs::openRunPart(
        this,
        [this](const QString& title, const QString& message) { reportError(title, message); });
    if (part) {
        openRun(part->first, part->second);
    }
}

bool MainWindow::openRun(const QString& path, const RunRange& range) {
    return startOpening(path, range, -1);
}

bool MainWindow::openRunDirectory(const QString& path, int rank, const RunRange& range) {
    return startOpening(path, range, rank);
}

bool MainWindow::startOpening(const QString& path, const RunRange& range, int rank) {
    if (m_session->isLoading()) {
        return false;
    }
    if (runActive()) {
        reportError(tr("Run in Progress"), tr("Stop the current run before opening another one."));
        return false;
    }
    m_status_label->setText(tr("Opening %1...").arg(QDir::toNativeSeparators(path)));
    return m_session->open(path, range, rank);
}

QString MainWindow::currentRunPath() const {
    return m_session->path();
}

std::shared_ptr<const Trace> MainWindow::currentTrace() const {
    return m_state->trace();
}

int MainWindow::rankCount() const {
    return m_session->rankCount();
}

int MainWindow::currentRank() const {
    return m_session->rank();
}

void MainWindow::showTrace(std::shared_ptr<const Trace> trace, const QString& path) {
    m_session->show(std::move(trace), path);
}

void MainWindow::onRunChanged() {
    const bool has_run = m_state->trace() != nullptr;
    if (has_run || m_session->isLive()) {
        m_timeline_stack->setCurrentWidget(m_timeline_page);
    }
    setRunTabsVisible(has_run);
    const QString path = m_session->path();
    const QString name = m_session->isLive()     ? tr("Recording")
                         : m_session->hasRanks() ? QStringLiteral("%1 - %2").arg(
                                                       QFileInfo(m_session->directory()).fileName(),
                                                       tr("rank %1").arg(m_session->rank()))
                         : path.isEmpty() ? tr("Unsaved run")
                                          : QFileInfo(path).fileName();
    setWindowTitle(QStringLiteral("%1 - %2").arg(name, QStringLiteral(MEMSCOPE_NAME)));
    updateStatus();
    updateActions();
}

bool MainWindow::saveRun(const QString& path) {
    if (const Outcome saved = m_session->save(path); !saved) {
        if (!saved.message().isEmpty()) {
            reportError(tr("Cannot Save Run"), saved.message());
        }
        return false;
    }
    addRecentFile(path);
    appendLog(tr("Saved %1.").arg(QDir::toNativeSeparators(path)));
    return true;
}

void MainWindow::saveRunDialog() {
    if (!m_state->trace()) {
        return;
    }
    if (const auto path = RunFileDialogs::saveRun(this, m_session->path())) {
        saveRun(*path);
    }
}

QStringList MainWindow::unfinishedJournals(const QString& dir) const {
    return JournalRecoverer::unfinishedJournals(dir);
}

void MainWindow::offerRecovery() {
    const QStringList journals = unfinishedJournals();
    if (journals.isEmpty()) {
        return;
    }
    auto* offer = new RecoveryOffer(journals, this);
    connect(offer, &RecoveryOffer::recoverChosen, this, &MainWindow::recoverJournals);
    connect(offer, &RecoveryOffer::discarded, this, [this](const QStringList& discarded) {
        appendLog(tr("Discarded %n unfinished run(s).", nullptr, int(discarded.size())));
    });
    offer->show();
}

void MainWindow::recoverJournals(const QStringList& journals) {
    m_recoverer->recover(journals);
}

QStringList MainWindow::recentFiles() const {
    return m_recent_menu->files();
}

void MainWindow::addRecentFile(const QString& path) {
    m_recent_menu->addFile(path);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (acceptsDrop(event->mimeData())) {
        event->acceptProposedAction();
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    if (!acceptsDrop(event->mimeData())) {
        return;
    }
    event->acceptProposedAction();
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile()) {
            // One run at a time: the first file dropped.
            const QString path = url.toLocalFile();
            QMetaObject::invokeMethod(
                this, [this, path] { openRun(path); }, Qt::QueuedConnection);
            return;
        }
    }
}

// --- views

void MainWindow::addTab(QWidget* page, const QString& name, bool needs_run,
                        std::function<void(const std::shared_ptr<const Trace>&)> fill) {
    // In a scroll area, so that a page with many controls never forces the window wider or
    // taller than a laptop screen: below its own minimum it scrolls.
    auto* area = new QScrollArea(m_tabs);
    area->setObjectName(name);
    area->setProperty("needs_run", needs_run);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setWidget(page);
    const int index = m_tabs->addTab(area, QString());
    m_tabs->setTabVisible(index, !needs_run || m_state->trace() != nullptr);
    if (fill) {
        new TabTraceFollower(m_state, area, std::move(fill));
    }
}

int MainWindow::tabIndexOf(QWidget* page) const {
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (pageAt(i) == page) {
            return i;
        }
    }
    return -1;
}

QWidget* MainWindow::pageAt(int index) const {
    QWidget* widget = m_tabs->widget(index);
    if (auto* area = qobject_cast<QScrollArea*>(widget)) {
        return area->widget();
    }
    return widget;
}

void MainWindow::createAnalysisTabs() {
    // The pages follow the run document (selection, highlights, range filter, indexes) rather
    // than each other: an operator, module, roofline or flame graph row highlights its
    // allocations on the timeline through it, a pinned allocation selects its rows in the
    // pages, the flame graph's time and the segment page's event through it.
    // Each page reads the document's run when its tab is shown (TabTraceFollower).
    m_operator_page = new OperatorPage(m_state, this);
    addTab(m_operator_page, QStringLiteral("operators"), true,
           [page = m_operator_page](const auto& trace) { page->setTrace(trace); });
    m_allocations_page = new AllocationsPage(m_state, this);
    addTab(m_allocations_page, QStringLiteral("allocations"), true,
           [page = m_allocations_page](const auto& trace) { page->setTrace(trace); });
    m_summary_page = new SummaryPage(m_state, this);
    addTab(m_summary_page, QStringLiteral("summary"), true,
           [page = m_summary_page](const auto& trace) { page->setTrace(trace); });
    m_segment_page = new SegmentPage(m_state, this);
    addTab(m_segment_page, QStringLiteral("segments"), true,
           [page = m_segment_page](const auto& trace) { page->setTrace(trace); });
    m_flame_graph_page = new FlameGraphPage(m_state, this);
    // With the document's filter and pinned time.
    addTab(m_flame_graph_page, QStringLiteral("flamegraph"), true,
           [page = m_flame_graph_page](const auto& trace) { page->setTrace(trace); });
    // With the document's pinned time; a row filters the views to its module (highlights).
    m_module_page = new ModulePage(m_state, this);
    addTab(m_module_page, QStringLiteral("modules"), true,
           [page = m_module_page](const auto& trace) { page->setTrace(trace); });
    connect(m_module_page, &ModulePage::moduleFilterChanged, this, &MainWindow::updateModuleChip);
    // What each step keeps (issue 53); a row highlights its allocations on the timeline.
    m_growth_page = new GrowthPage(m_state, this);
    addTab(m_growth_page, QStringLiteral("growth"), true,
           [page = m_growth_page](const auto& trace) { page->setTrace(trace); });
    m_compare_page = new ComparePage(this);
    addTab(m_compare_page, QStringLiteral("compare"), false);
    m_tabs->setTabVisible(tabIndexOf(m_compare_page), false);  // until File > Compare With
    m_sweep_page = new SweepPage(this);
    addTab(m_sweep_page, QStringLiteral("sweeps"), false);
    m_planner_page = new PlannerPage(this, true);  // predicts when its tab shows
    addTab(m_planner_page, QStringLiteral("planner"), false,
           [page = m_planner_page](const auto& trace) {
               if (trace) {
                   page->setMeasuredTrace(trace);
               }
           });

    // A pick in the allocation list pins it (the page sets the document) and shows the
    // timeline: switching tabs is the window's business.
    connect(m_allocations_page, &AllocationsPage::allocationSelected, this, [this](qint64 a) {
        m_state->setSelectedAllocation(a);
        m_tabs->setCurrentWidget(m_timeline_stack);
    });
    connect(m_sweep_page, &SweepPage::runFileActivated, this,
            [this](const QString& path) { openRun(path); });
}

bool MainWindow::showRank(int rank) {
    return m_session->showRank(rank);
}

void MainWindow::onRanksChanged() {
    QStringList labels;
    QVector<SummaryPage::RankRow> rows;
    for (int r = 0; r < m_session->rankCount(); ++r) {
        SummaryPage::RankRow row;
        row.rank = r;
        if (const auto trace = m_session->rankTrace(r)) {
            row = SummaryPage::rankRowOf(r, *trace);
            // A Python program's process says which it is: "1 · spawn, pid 4242 (peak ...)".
            const QString process = m_session->rankProcess(r);
            labels.append(
                process.isEmpty()
                    ? tr("%1 (peak %2)").arg(r).arg(humanBytes(row.peak_bytes))
                    : tr("%1 · %2 (peak %3)").arg(r).arg(process, humanBytes(row.peak_bytes)));
        } else {
            row.missing = true;
            labels.append(tr("%1 (no recording)").arg(r));
        }
        rows.append(row);
    }
    // The lanes of all ranks (issue 40): the same runs, which process each is.
    QVector<RankLanesView::Run> runs;
    for (int r = 0; r < m_session->rankCount(); ++r) {
        runs.append({r, m_session->rankProcess(r), m_session->rankTrace(r)});
    }
    m_timeline_page->setRankRuns(runs);
    m_timeline_page->setRanks(labels, m_session->rank());
    m_summary_page->setRanks(rows, m_session->rank());
    updateRankMenu();
}

void MainWindow::updateRankMenu() {
    if (!m_compare_rank_menu) {
        return;
    }
    m_compare_rank_menu->clear();
    for (int r = 0; r < m_session->rankCount(); ++r) {
        if (r == m_session->rank() || !m_session->rankTrace(r)) {
            continue;
        }
        QAction* action = m_compare_rank_menu->addAction(tr("Rank %1").arg(r));
        connect(action, &QAction::triggered, this, [this, r] { compareWithRank(r); });
    }
    m_compare_rank_menu->menuAction()->setVisible(m_session->rankCount() > 1);
    m_compare_rank_menu->setEnabled(!m_compare_rank_menu->isEmpty());
}

bool MainWindow::compareWithRank(int rank) {
    if (!m_state->trace() || rank == m_session->rank() || !m_session->rankTrace(rank)) {
        return false;
    }
    compareTraces(m_session->rankTrace(rank), tr("rank %1").arg(rank));
    return true;
}

void MainWindow::compareTraces(std::shared_ptr<const Trace> other, const QString& other_name) {
    const QString path = m_session->path();
    const QString this_name = m_session->rank() >= 0 ? tr("rank %1").arg(m_session->rank())
                              : path.isEmpty()       ? tr("Unsaved run")
                                                     : QFileInfo(path).fileName();
    m_compare_page->setRuns(m_state->trace(), std::move(other), this_name, other_name);
    const int index = tabIndexOf(m_compare_page);
    m_tabs->setTabVisible(index, true);
    m_tabs->setCurrentIndex(index);
    appendLog(tr("Comparing %1 with %2.").arg(this_name, other_name));
}

bool MainWindow::compareWith(const QString& path) {
    if (!m_state->trace() || runActive()) {
        return false;
    }
    return m_session->openForComparison(path);  // compareTraces() when it is read
}

void MainWindow::compareWithDialog() {
    if (!m_state->trace()) {
        return;
    }
    if (const auto path = RunFileDialogs::compareWith(this)) {
        compareWith(*path);
    }
}

void MainWindow::setErrorReporter(std::function<void(const QString&)> reporter) {
    m_error_reporter = std::move(reporter);
}

void MainWindow::reportError(const QString& title, const QString& message) {
    if (m_error_reporter) {
        m_error_reporter(message);
        return;
    }
    QMessageBox::warning(this, title, message);
}

QStringList MainWindow::viewNames(bool all) const {
    QStringList names;
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (all || m_tabs->isTabVisible(i)) {
            QWidget* page = m_tabs->widget(i);
            names << (page == m_timeline_stack ? QStringLiteral("timeline") : page->objectName());
        }
    }
    return names;
}

bool MainWindow::selectView(const QString& name) {
    for (int i = 0; i < m_tabs->count(); ++i) {
        QWidget* page = m_tabs->widget(i);
        const QString page_name =
            page == m_timeline_stack ? QStringLiteral("timeline") : page->objectName();
        if (page_name == name && m_tabs->isTabVisible(i)) {
            m_tabs->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

// --- export

QWidget* MainWindow::currentExportWidget() const {
    QWidget* page = pageAt(m_tabs->currentIndex());
    if (page == m_timeline_stack) {
        if (m_timeline_stack->currentWidget() != m_timeline_page) {
            return m_placeholder;
        }
        return m_timeline_page->showsAllRanks()
                   ? static_cast<QWidget*>(m_timeline_page->rankLanes())
                   : static_cast<QWidget*>(m_timeline_page->view());
    }
    return page;
}

Outcome MainWindow::exportView(const QString& path, double scale, const QSize& size) {
    return ViewExporter::write(currentExportWidget(), path, scale, size,
                               m_tabs->tabText(m_tabs->currentIndex()));
}

void MainWindow::exportViewDialog() {
    QWidget* widget = currentExportWidget();
    if (!widget) {
        return;
    }
    const QString dir =
        appSettings().value(QLatin1String(k_export_dir_key), QDir::currentPath()).toString();
    ExportDialog dialog(m_tabs->tabText(m_tabs->currentIndex()).remove(QLatin1Char('&')),
                        widget->size(), dir, this);
    if (dialog.exec() != QDialog::Accepted) {
        return;
    }
    if (const Outcome exported = exportView(dialog.path(), dialog.scale(), dialog.targetSize());
        !exported) {
        reportError(tr("Cannot Export View"), exported.message());
        return;
    }
    appSettings().setValue(QLatin1String(k_export_dir_key),
                           QFileInfo(dialog.path()).absolutePath());
    appendLog(tr("Exported the view to %1.").arg(QDir::toNativeSeparators(dialog.path())));
}

// --- runs

void MainWindow::startRun() {
    if (runActive() || m_session->isLoading()) {
        return;
    }
    const auto request = m_run_panel->validatedRequest();
    if (!request) {
        m_run_dock->show();
        m_run_dock->raise();
        return;
    }
    if (const Outcome started = m_launcher->start(*request); !started) {
        m_run_panel->showProblem(started.message());
        reportError(tr("Cannot Start Run"), started.message());
        return;
    }
    m_run_panel->saveSettings();
}

void MainWindow::stopRun() {
    m_launcher->stop();
}

bool MainWindow::runActive() const {
    return m_launcher->isActive();
}

RunController* MainWindow::runController() const {
    return m_launcher->controller();
}

RankRunController* MainWindow::rankRunController() const {
    return m_launcher->rankController();
}

// --- window

void MainWindow::appendLog(const QString& line) {
    m_log->appendPlainText(line);
}

void MainWindow::setRunTabsVisible(bool visible) {
    // Views other than the timeline that need a run go here as they arrive; the timeline tab
    // itself always shows (its placeholder says how to get a run).
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (m_tabs->widget(i)->property("needs_run").toBool()) {
            m_tabs->setTabVisible(i, visible);
        }
    }
}

void MainWindow::updateStatus() {
    if (m_launcher->isActive()) {
        m_status_label->setText(tr("Recording %1").arg(m_launcher->describe()));
        return;
    }
    if (m_session->isLoading()) {
        return;
    }
    if (!m_state->trace()) {
        m_status_label->setText(tr("No run open"));
        return;
    }
    if (m_session->path().isEmpty()) {
        m_status_label->setText(tr("Unsaved run"));
        return;
    }
    m_status_label->setText(tr("%1 open").arg(QDir::toNativeSeparators(m_session->path())));
}

void MainWindow::updateActions() {
    const bool active = runActive();
    const bool loading = m_session->isLoading();
    const bool has_run = m_state->trace() != nullptr;
    m_run_action->setEnabled(!active && !loading);
    m_stop_action->setEnabled(active);
    m_open_action->setEnabled(!active && !loading);
    m_open_range_action->setEnabled(!active && !loading);
    m_recent_menu->setEnabled(!active && !loading);
    m_save_action->setEnabled(!active && has_run);
    m_compare_action->setEnabled(!active && !loading && has_run);
    m_export_action->setEnabled(!loading);
    m_find_action->setEnabled(has_run);
    m_find_next_action->setEnabled(has_run);
    m_find_previous_action->setEnabled(has_run);
    m_run_panel->setRunning(active);
}

void MainWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
    QMainWindow::changeEvent(event);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    m_session->cancel();  // a load going stops at its next chunk
    // The controllers' destructors wait for the run; every rank saves.
    m_launcher->stop();
    m_run_panel->saveSettings();
    saveWindowState();
    QMainWindow::closeEvent(event);
}

void MainWindow::createActions() {
    m_open_action = new QAction(this);
    m_open_action->setObjectName(QStringLiteral("action_open"));
    m_open_action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_O));
    connect(m_open_action, &QAction::triggered, this, &MainWindow::openRunDialog);
    m_open_range_action = new QAction(this);
    m_open_range_action->setObjectName(QStringLiteral("action_open_range"));
    connect(m_open_range_action, &QAction::triggered, this, &MainWindow::openRunRangeDialog);

    m_save_action = new QAction(this);
    m_save_action->setObjectName(QStringLiteral("action_save"));
    m_save_action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_S));
    connect(m_save_action, &QAction::triggered, this, &MainWindow::saveRunDialog);

    m_export_action = new QAction(this);
    m_export_action->setObjectName(QStringLiteral("action_export_view"));
    m_export_action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(m_export_action, &QAction::triggered, this, &MainWindow::exportViewDialog);

    m_compare_action = new QAction(this);
    m_compare_action->setObjectName(QStringLiteral("action_compare"));
    connect(m_compare_action, &QAction::triggered, this, &MainWindow::compareWithDialog);

    m_quit_action = new QAction(this);
    m_quit_action->setObjectName(QStringLiteral("action_quit"));
    // Spelled out: QKeySequence::Quit is empty on platforms without a desktop theme.
    m_quit_action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    m_quit_action->setMenuRole(QAction::QuitRole);
    connect(m_quit_action, &QAction::triggered, this, &QWidget::close);

    m_run_action = new QAction(this);
    m_run_action->setObjectName(QStringLiteral("action_run"));
    m_run_action->setShortcut(QKeySequence(Qt::Key_F5));
    connect(m_run_action, &QAction::triggered, this, &MainWindow::startRun);

    m_stop_action = new QAction(this);
    m_stop_action->setObjectName(QStringLiteral("action_stop"));
    m_stop_action->setShortcut(QKeySequence(Qt::Key_Escape));
    // Window-wide, but the timeline's own Esc (unpin) wins while it has focus and no run goes.
    m_stop_action->setShortcutContext(Qt::WindowShortcut);
    connect(m_stop_action, &QAction::triggered, this, &MainWindow::stopRun);

    m_find_action = new QAction(this);
    m_find_action->setObjectName(QStringLiteral("action_find"));
    m_find_action->setShortcut(QKeySequence::Find);
    connect(m_find_action, &QAction::triggered, this, [this] {
        if (!m_state->trace()) {
            return;
        }
        m_tabs->setCurrentWidget(m_timeline_stack);
        m_timeline_page->searchBar()->focusSearch();
    });
    m_find_next_action = new QAction(this);
    m_find_next_action->setObjectName(QStringLiteral("action_find_next"));
    m_find_next_action->setShortcut(QKeySequence(Qt::Key_F3));
    m_find_previous_action = new QAction(this);
    m_find_previous_action->setObjectName(QStringLiteral("action_find_previous"));
    m_find_previous_action->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3));
    m_annotations_action = new QAction(this);
    m_annotations_action->setObjectName(QStringLiteral("action_annotations"));
    m_annotations_action->setCheckable(true);
    m_clear_filter_action = new QAction(this);
    m_clear_filter_action->setObjectName(QStringLiteral("action_clear_filter"));
    connect(m_clear_filter_action, &QAction::triggered, m_state, &RunDocument::clearFilter);

    m_about_action = new QAction(this);
    m_about_action->setObjectName(QStringLiteral("action_about"));
    m_about_action->setMenuRole(QAction::AboutRole);
    connect(m_about_action, &QAction::triggered, this, &MainWindow::showAbout);

    m_about_qt_action = new QAction(this);
    m_about_qt_action->setObjectName(QStringLiteral("action_about_qt"));
    m_about_qt_action->setMenuRole(QAction::AboutQtRole);
    connect(m_about_qt_action, &QAction::triggered, qApp, &QApplication::aboutQt);
}

void MainWindow::createMenus() {
    m_file_menu = menuBar()->addMenu(QString());
    m_file_menu->setObjectName(QStringLiteral("menu_file"));
    m_file_menu->addAction(m_open_action);
    m_file_menu->addAction(m_open_range_action);
    m_recent_menu = new RecentFilesMenu(this);
    connect(m_recent_menu, &RecentFilesMenu::fileChosen, this,
            [this](const QString& file) { openRun(file); });
    m_file_menu->addMenu(m_recent_menu);
    m_file_menu->addAction(m_save_action);
    m_file_menu->addAction(m_compare_action);
    m_compare_rank_menu = m_file_menu->addMenu(QString());
    m_compare_rank_menu->setObjectName(QStringLiteral("menu_compare_rank"));
    m_compare_rank_menu->menuAction()->setVisible(false);
    m_file_menu->addSeparator();
    m_file_menu->addAction(m_export_action);
    m_file_menu->addSeparator();
    m_file_menu->addAction(m_quit_action);

    m_run_menu = menuBar()->addMenu(QString());
    m_run_menu->setObjectName(QStringLiteral("menu_run"));
    m_run_menu->addAction(m_run_action);
    m_run_menu->addAction(m_stop_action);

    m_view_menu = menuBar()->addMenu(QString());
    m_view_menu->setObjectName(QStringLiteral("menu_view"));
    m_view_menu->addAction(m_find_action);
    m_view_menu->addAction(m_find_next_action);
    m_view_menu->addAction(m_find_previous_action);
    m_view_menu->addSeparator();
    m_view_menu->addAction(m_annotations_action);
    m_view_menu->addAction(m_clear_filter_action);
    m_view_menu->addSeparator();

    m_help_menu = menuBar()->addMenu(QString());
    m_help_menu->setObjectName(QStringLiteral("menu_help"));
    m_help_menu->addAction(m_about_action);
    m_help_menu->addAction(m_about_qt_action);
}

void MainWindow::createCentralWidget() {
    m_placeholder = new QWidget(this);
    m_placeholder->setObjectName(QStringLiteral("placeholder"));
    auto* layout = new QVBoxLayout(m_placeholder);
    layout->addStretch();

    m_placeholder_title = new QLabel(m_placeholder);
    m_placeholder_title->setObjectName(QStringLiteral("placeholder_title"));
    m_placeholder_title->setAlignment(Qt::AlignCenter);
    QFont title_font = m_placeholder_title->font();
    title_font.setPointSizeF(title_font.pointSizeF() * 1.5);
    m_placeholder_title->setFont(title_font);
    layout->addWidget(m_placeholder_title);

    m_placeholder_detail = new QLabel(m_placeholder);
    m_placeholder_detail->setObjectName(QStringLiteral("placeholder_detail"));
    m_placeholder_detail->setAlignment(Qt::AlignCenter);
    m_placeholder_detail->setWordWrap(true);
    m_placeholder_detail->setEnabled(false);  // the disabled palette greys the secondary line
    layout->addWidget(m_placeholder_detail);
    layout->addStretch();

    m_timeline_page = new TimelinePage(m_state, this);
    connect(m_find_next_action, &QAction::triggered, m_timeline_page->searchBar(),
            &SearchBar::next);
    connect(m_find_previous_action, &QAction::triggered, m_timeline_page->searchBar(),
            &SearchBar::previous);
    // The View menu's entry and the timeline's toggle button are one setting.
    QToolButton* annotations = m_timeline_page->annotationsButton();
    connect(m_annotations_action, &QAction::toggled, annotations, &QToolButton::setChecked);
    connect(annotations, &QToolButton::toggled, m_annotations_action, &QAction::setChecked);
    m_timeline_stack = new QStackedWidget(this);
    m_timeline_stack->setObjectName(QStringLiteral("central_stack"));
    m_timeline_stack->addWidget(m_placeholder);
    m_timeline_stack->addWidget(m_timeline_page);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("view_tabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_timeline_stack, QString());
    // The range filter's chip sits above the tabs: it applies to all of them.
    auto* central = new QWidget(this);
    auto* central_layout = new QVBoxLayout(central);
    central_layout->setContentsMargins(0, 0, 0, 0);
    central_layout->setSpacing(0);
    m_filter_chip = new FilterChip(m_state, central);
    m_filter_chip->setVisible(false);
    central_layout->addWidget(m_filter_chip);
    // The Modules tab's filter, with the same look: it applies to the views the document's
    // highlights reach.
    m_module_chip = new QFrame(central);
    m_module_chip->setObjectName(QStringLiteral("module_filter_chip"));
    m_module_chip->setFrameShape(QFrame::StyledPanel);
    m_module_chip->setAutoFillBackground(true);
    QPalette chip_palette = m_module_chip->palette();
    chip_palette.setColor(QPalette::Window, QColor(255, 240, 215));
    m_module_chip->setPalette(chip_palette);
    auto* chip_layout = new QHBoxLayout(m_module_chip);
    chip_layout->setContentsMargins(8, 2, 2, 2);
    m_module_chip_label = new QLabel(m_module_chip);
    m_module_chip_label->setObjectName(QStringLiteral("module_filter_text"));
    m_module_chip_clear = new QToolButton(m_module_chip);
    m_module_chip_clear->setObjectName(QStringLiteral("module_filter_clear"));
    m_module_chip_clear->setText(QStringLiteral("\u2715"));
    m_module_chip_clear->setAutoRaise(true);
    chip_layout->addWidget(m_module_chip_label, 1);
    chip_layout->addWidget(m_module_chip_clear);
    m_module_chip->setVisible(false);
    central_layout->addWidget(m_module_chip);
    central_layout->addWidget(m_tabs, 1);
    setCentralWidget(central);
    createAnalysisTabs();
    connect(m_module_chip_clear, &QToolButton::clicked, m_module_page,
            &ModulePage::clearModuleFilter);
}

void MainWindow::updateModuleChip() {
    const QString path = m_module_page->moduleFilter();
    m_module_chip->setVisible(!path.isEmpty());
    m_module_chip_label->setText(
        path.isEmpty()
            ? QString()
            : tr("Filtered to module %1: %n allocation(s) highlighted", nullptr,
                 int(std::min<qsizetype>(m_module_page->filteredAllocations().size(), INT32_MAX)))
                  .arg(path));
}

void MainWindow::createDocks() {
    m_run_panel = new RunPanel(this);
    m_run_panel->restoreSettings();
    connect(m_run_panel, &RunPanel::runRequested, this, &MainWindow::startRun);
    connect(m_run_panel, &RunPanel::stopRequested, this, &MainWindow::stopRun);
    m_run_dock = new QDockWidget(this);
    m_run_dock->setObjectName(QStringLiteral("run_dock"));
    m_run_dock->setWidget(m_run_panel);
    addDockWidget(Qt::LeftDockWidgetArea, m_run_dock);

    m_log = new QPlainTextEdit(this);
    m_log->setObjectName(QStringLiteral("log_view"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(20000);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log_dock = new QDockWidget(this);
    m_log_dock->setObjectName(QStringLiteral("log_dock"));
    m_log_dock->setWidget(m_log);
    addDockWidget(Qt::BottomDockWidgetArea, m_log_dock);
    resizeDocks({m_log_dock}, {110}, Qt::Vertical);
    resizeDocks({m_run_dock}, {330}, Qt::Horizontal);

    m_view_menu->addAction(m_run_dock->toggleViewAction());
    m_view_menu->addAction(m_log_dock->toggleViewAction());
}

void MainWindow::createStatusBar() {
    // Widgets rather than showMessage(): status tips of hovered actions would erase a message.
    m_status_label = new QLabel(this);
    m_status_label->setObjectName(QStringLiteral("status_label"));
    statusBar()->addWidget(m_status_label, 1);
    m_run_status = new RunStatusBar(statusBar());
    m_load_progress = m_run_status->loadProgress();
}

void MainWindow::retranslateUi() {
    m_file_menu->setTitle(tr("&File"));
    m_run_menu->setTitle(tr("&Run"));
    m_view_menu->setTitle(tr("&View"));
    m_find_action->setText(tr("&Find..."));
    m_find_action->setStatusTip(
        tr("Search allocations by address, operator, module, category or stack frame"));
    m_find_next_action->setText(tr("Find &Next"));
    m_find_previous_action->setText(tr("Find &Previous"));
    m_annotations_action->setText(tr("&Annotations"));
    m_annotations_action->setStatusTip(
        tr("Show steps, phases, recomputations and imported annotations on the timeline"));
    m_clear_filter_action->setText(tr("&Clear Range Filter"));
    m_clear_filter_action->setStatusTip(
        tr("Show every allocation again (Ctrl+drag on the timeline sets a range filter)"));
    m_help_menu->setTitle(tr("&Help"));
    m_open_action->setText(tr("&Open Run..."));
    m_open_action->setStatusTip(tr("Open a recorded .memscope run or a PyTorch memory snapshot"));
    m_open_range_action->setText(tr("Open &Part of Run..."));
    m_open_range_action->setStatusTip(
        tr("Open only an event or time range of a big .memscope run"));
    m_save_action->setText(tr("&Save Run As..."));
    m_save_action->setStatusTip(tr("Write the open run to a .memscope file"));
    m_export_action->setText(tr("&Export View..."));
    m_export_action->setStatusTip(tr("Save the current view as a PNG image or an SVG drawing"));
    m_compare_action->setText(tr("&Compare With Run..."));
    if (m_compare_rank_menu) {
        m_compare_rank_menu->setTitle(tr("Compare With &Rank"));
        updateRankMenu();
    }
    m_compare_action->setStatusTip(
        tr("Open a second run and compare it with this one side by side"));
    m_quit_action->setText(tr("&Quit"));
    m_quit_action->setStatusTip(tr("Quit Memscope"));
    m_run_action->setText(tr("&Run"));
    m_run_action->setStatusTip(
        tr("Train with the run panel's settings and record every allocation"));
    m_stop_action->setText(tr("&Stop"));
    m_stop_action->setStatusTip(tr("Stop the run; everything recorded so far is kept"));
    m_about_action->setText(tr("&About Memscope"));
    m_about_action->setStatusTip(tr("Show the versions of Memscope, Qt, LibTorch and the device"));
    m_about_qt_action->setText(tr("About &Qt"));
    m_about_qt_action->setStatusTip(tr("Show information about Qt"));
    m_run_dock->setWindowTitle(tr("Run"));
    m_log_dock->setWindowTitle(tr("Log"));
    m_tabs->setTabText(m_tabs->indexOf(m_timeline_stack), tr("&Timeline"));
    m_tabs->setTabText(tabIndexOf(m_operator_page), tr("&Operators"));
    m_tabs->setTabText(tabIndexOf(m_allocations_page), tr("&Allocations"));
    m_tabs->setTabText(tabIndexOf(m_summary_page), tr("S&ummary"));
    m_tabs->setTabText(tabIndexOf(m_segment_page), tr("Se&gments"));
    m_tabs->setTabText(tabIndexOf(m_flame_graph_page), tr("F&lame Graph"));
    m_tabs->setTabText(tabIndexOf(m_module_page), tr("&Modules"));
    m_tabs->setTabText(tabIndexOf(m_growth_page), tr("Growth"));
    m_tabs->setTabText(tabIndexOf(m_compare_page), tr("&Compare"));
    m_tabs->setTabText(tabIndexOf(m_sweep_page), tr("S&weeps"));
    m_tabs->setTabText(tabIndexOf(m_planner_page), tr("&Planner"));

    m_module_chip_clear->setToolTip(tr("Clear the module filter"));
    updateModuleChip();
    m_placeholder_title->setText(tr("No run is open."));
    m_placeholder_detail->setText(
        tr("Press Run (F5) to train with the settings on the left and watch the memory live, "
           "open a recorded run or a PyTorch snapshot with File > Open Run (Ctrl+O), or drop "
           "one here."));
    updateStatus();
}

void MainWindow::restoreWindowState() {
    const QSettings s = appSettings();
    if (!restoreGeometry(s.value(QLatin1String(k_geometry_key)).toByteArray())) {
        resize(1280, 800);
    }
    restoreState(s.value(QLatin1String(k_state_key)).toByteArray());
}

void MainWindow::saveWindowState() const {
    QSettings s = appSettings();
    s.setValue(QLatin1String(k_geometry_key), saveGeometry());
    s.setValue(QLatin1String(k_state_key), saveState());
}

}  // namespace memscope
