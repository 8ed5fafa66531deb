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
#include "shell/main_window_actions.h"
#include "shell/module_filter_chip.h"
#include "shell/recent_files_menu.h"
#include "shell/recovery_offer.h"
#include "shell/run_file_dialogs.h"
#include "shell/run_load_progress.h"
#include "shell/run_panel.h"
#include "shell/run_placeholder.h"
#include "shell/run_status_bar.h"
#include "shell/tab_trace_follower.h"
#include "shell/view_exporter.h"
#include "shell/view_tabs.h"
#include "studies/compare_page.h"
#include "studies/planner_page.h"
#include "studies/sweep_page.h"
#include "timeline/timeline_page.h"
#include "timeline/timeline_view.h"
#include "trace/trace.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEvent>
#include <QFileInfo>
#include <QFontDatabase>
#include <QIcon>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>
#include <QWidget>

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
    m_actions = new MainWindowActions(this, m_state, m_session);
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
    // the first Run does not either; while a file opens, once it has (its ~150 MB of code and
    // data would otherwise add to the peak of laying out a big run: issue 52).
    QTimer::singleShot(k_torch_part_delay_ms, this, [this] { loadTorchPartWhenIdle(); });
}

void MainWindow::loadTorchPartWhenIdle() {
    if (!m_session->isLoading()) {
        TorchPartLoader::loadInBackground();
        return;
    }
    auto* once = new QObject(this);
    connect(m_session, &RunSession::loadingChanged, once, [once](bool loading) {
        if (!loading) {
            TorchPartLoader::loadInBackground();
            once->deleteLater();
        }
    });
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
    // A big snapshot's preview kept, the rest too big for memory: said where it cannot be
    // missed, without stopping anything (not modal).
    connect(m_session, &RunSession::keptPreview, this, [this](const QString& message) {
        auto* box = new QMessageBox(QMessageBox::Information, tr("Part of the File Shown"), message,
                                    QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
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
    m_tabs->setRunPagesVisible(has_run);
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
    return m_actions->recentMenu()->files();
}

void MainWindow::addRecentFile(const QString& path) {
    m_actions->recentMenu()->addFile(path);
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
    QWidget* area =
        m_tabs->addPage(page, name, needs_run, !needs_run || m_state->trace() != nullptr);
    if (fill) {
        new TabTraceFollower(m_state, area, std::move(fill));
    }
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
    // What each step keeps (issue 53); a row highlights its allocations on the timeline.
    m_growth_page = new GrowthPage(m_state, this);
    addTab(m_growth_page, QStringLiteral("growth"), true,
           [page = m_growth_page](const auto& trace) { page->setTrace(trace); });
    m_compare_page = new ComparePage(this);
    addTab(m_compare_page, QStringLiteral("compare"), false);
    m_tabs->setTabVisible(m_tabs->indexOfPage(m_compare_page), false);  // until File > Compare With
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
                    ? tr("%1 (peak %2)").arg(r).arg(bytesText(row.peak_bytes))
                    : tr("%1 · %2 (peak %3)").arg(r).arg(process, bytesText(row.peak_bytes)));
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
    m_actions->updateRankMenu();
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
    const int index = m_tabs->indexOfPage(m_compare_page);
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
    return m_tabs->viewNames(all);
}

bool MainWindow::selectView(const QString& name) {
    return m_tabs->selectView(name);
}

// --- export

QWidget* MainWindow::currentExportWidget() const {
    QWidget* page = m_tabs->pageAt(m_tabs->currentIndex());
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
    m_actions->update(runActive(), m_session->isLoading(), m_state->trace() != nullptr);
    m_run_panel->setRunning(runActive());
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

void MainWindow::createCentralWidget() {
    m_placeholder = new RunPlaceholder(this);
    m_timeline_page = new TimelinePage(m_state, this);
    connect(findAction(), &QAction::triggered, this, [this] {
        if (!m_state->trace()) {
            return;
        }
        m_tabs->setCurrentWidget(m_timeline_stack);
        m_timeline_page->searchBar()->focusSearch();
    });
    connect(findNextAction(), &QAction::triggered, m_timeline_page->searchBar(), &SearchBar::next);
    connect(findPreviousAction(), &QAction::triggered, m_timeline_page->searchBar(),
            &SearchBar::previous);
    // The View menu's entry and the timeline's toggle button are one setting.
    QToolButton* annotations = m_timeline_page->annotationsButton();
    connect(annotationsAction(), &QAction::toggled, annotations, &QToolButton::setChecked);
    connect(annotations, &QToolButton::toggled, annotationsAction(), &QAction::setChecked);
    m_timeline_stack = new QStackedWidget(this);
    m_timeline_stack->setObjectName(QStringLiteral("central_stack"));
    m_timeline_stack->addWidget(m_placeholder);
    m_timeline_stack->addWidget(m_timeline_page);

    m_tabs = new ViewTabs(this);
    m_tabs->addTimeline(m_timeline_stack);
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
    m_module_chip = new ModuleFilterChip(central);
    central_layout->addWidget(m_module_chip);
    central_layout->addWidget(m_tabs, 1);
    setCentralWidget(central);
    createAnalysisTabs();
    m_module_chip->follow(m_module_page);
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

    m_actions->viewMenu()->addAction(m_run_dock->toggleViewAction());
    m_actions->viewMenu()->addAction(m_log_dock->toggleViewAction());
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
    m_actions->retranslate();
    m_run_dock->setWindowTitle(tr("Run"));
    m_log_dock->setWindowTitle(tr("Log"));
    m_tabs->setTabText(m_tabs->indexOf(m_timeline_stack), tr("&Timeline"));
    m_tabs->setTabText(m_tabs->indexOfPage(m_operator_page), tr("&Operators"));
    m_tabs->setTabText(m_tabs->indexOfPage(m_allocations_page), tr("&Allocations"));
    m_tabs->setTabText(m_tabs->indexOfPage(m_summary_page), tr("S&ummary"));
    m_tabs->setTabText(m_tabs->indexOfPage(m_segment_page), tr("Se&gments"));
    m_tabs->setTabText(m_tabs->indexOfPage(m_flame_graph_page), tr("F&lame Graph"));
    m_tabs->setTabText(m_tabs->indexOfPage(m_module_page), tr("&Modules"));
    m_tabs->setTabText(m_tabs->indexOfPage(m_growth_page), tr("Growth"));
    m_tabs->setTabText(m_tabs->indexOfPage(m_compare_page), tr("&Compare"));
    m_tabs->setTabText(m_tabs->indexOfPage(m_sweep_page), tr("S&weeps"));
    m_tabs->setTabText(m_tabs->indexOfPage(m_planner_page), tr("&Planner"));
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
