#include "main_window.h"

#include "allocations_page.h"
#include "app_settings.h"
#include "byte_format.h"
#include "compare_page.h"
#include "export_dialog.h"
#include "filter_chip.h"
#include "flame_graph_page.h"
#include "io/journal_recovery.h"
#include "io/run_directory.h"
#include "io/run_file.h"
#include "io/run_file_cancelled.h"
#include "io/run_journal.h"
#include "io/run_source.h"
#include "operator_page.h"
#include "planner_page.h"
#include "rank_run_controller.h"
#include "run_controller.h"
#include "run_document.h"
#include "run_load_progress.h"
#include "run_panel.h"
#include "search_bar.h"
#include "segment_page.h"
#include "summary_page.h"
#include "sweep_page.h"
#include "timeline_page.h"
#include "timeline_view.h"
#include "trace/timeline_layout.h"
#include "trace/trace.h"
#include "when_finished.h"

#include <torch/version.h>  // only the version macros: keeps LibTorch's big headers out of widgets

#include "device/device_discovery.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEvent>
#include <QEventLoop>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFont>
#include <QFontDatabase>
#include <QFuture>
#include <QFutureWatcher>
#include <QHash>
#include <QIcon>
#include <QImage>
#include <QInputDialog>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QSvgGenerator>
#include <QTabWidget>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>
#include <QWidget>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>
#include <exception>
#include <memory>
#include <optional>

#include "memscope_version.h"

namespace memscope {
namespace {

constexpr auto k_geometry_key = "main_window/geometry";
constexpr auto k_state_key = "main_window/state";
constexpr auto k_last_dir_key = "main_window/last_run_dir";
constexpr auto k_recent_key = "main_window/recent_files";
constexpr auto k_export_dir_key = "main_window/last_export_dir";
constexpr int k_max_recent = 10;
// Files at least this large load on a worker thread (a 4 MiB run file loads in about 10 ms).
constexpr qint64 k_async_load_bytes = 4 << 20;

QString humanDuration(double seconds) {
    if (seconds < 60) {
        return QCoreApplication::translate("memscope::MainWindow", "%1 s")
            .arg(QString::number(std::ceil(seconds)));
    }
    const int total = int(std::ceil(seconds));
    return QCoreApplication::translate("memscope::MainWindow", "%1 min %2 s")
        .arg(total / 60)
        .arg(total % 60, 2, 10, QLatin1Char('0'));
}

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

    m_controller = new RunController(this);
    m_controller->setKeepDirectory(
        QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
        QStringLiteral("/runs"));
    connect(m_controller, &RunController::snapshotReady, this, &MainWindow::onSnapshot);
    connect(m_controller, &RunController::stepFinished, this, &MainWindow::onStep);
    connect(m_controller, &RunController::logMessage, this, &MainWindow::appendLog);
    connect(m_controller, &RunController::finished, this,
            [this](std::shared_ptr<const Trace> trace, std::shared_ptr<TimelineLayout> layout,
                   const RunController::Outcome& outcome) {
                onRunFinished(std::move(trace), std::move(layout), outcome.cancelled,
                              outcome.outOfMemory, outcome.error, outcome.savedPath,
                              outcome.saveError);
            });
    m_rank_controller = new RankRunController(this);
    m_rank_controller->setKeepDirectory(
        QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
        QStringLiteral("/runs"));
    connect(m_rank_controller, &RankRunController::snapshotReady, this, &MainWindow::onSnapshot);
    connect(m_rank_controller, &RankRunController::logMessage, this, &MainWindow::appendLog);
    connect(m_rank_controller, &RankRunController::progress, this,
            [this](qint64 done, qint64 total, double left, qint64 peak) {
                onStep(done, total, 0, left, peak, QString());
            });
    connect(m_rank_controller, &RankRunController::ranksChanged, this,
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
    connect(m_rank_controller, &RankRunController::finished, this,
            [this](const RankRunController::Outcome& o) {
                onRankRunFinished(o.directory, o.cancelled, o.error, o.rankFiles);
            });

    m_state = new RunDocument(this);
    createActions();
    createMenus();
    createCentralWidget();
    createDocks();
    createStatusBar();
    retranslateUi();
    restoreWindowState();
    updateRecentMenu();
    updateActions();
}

MainWindow::~MainWindow() = default;

QString MainWindow::aboutText() {
    // The devices `memscope-cli devices` lists, one a line, then the CUDA and HIP status lines.
    const auto& discovery = DeviceDiscovery::shared();
    QStringList devices;
    for (const auto& d : discovery.devices()) {
        devices << QString::fromStdString(d.toText()).toHtmlEscaped();
    }
    devices << tr("CUDA: %1").arg(QString::fromStdString(discovery.cudaStatus()).toHtmlEscaped())
            << tr("HIP: %1").arg(QString::fromStdString(discovery.hipStatus()).toHtmlEscaped());
    return tr("<h3>%1 %2</h3>"
              "<p>A memory profiler for Tiny LLaMA training: it records every tensor allocation "
              "and shows where the memory goes.</p>"
              "<p>Qt %3<br/>LibTorch %4</p><p>Devices:<br/>%5</p>")
        .arg(QStringLiteral(MEMSCOPE_NAME), QStringLiteral(MEMSCOPE_VERSION),
             QString::fromLatin1(qVersion()), QStringLiteral(TORCH_VERSION),
             devices.join(QStringLiteral("<br/>")));
}

void MainWindow::showAbout() {
    QMessageBox::about(this, tr("About Memscope"), aboutText());
}

// --- files

void MainWindow::openRunDialog() {
    const QString dir =
        appSettings().value(QLatin1String(k_last_dir_key), QDir::currentPath()).toString();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Run"), dir,
        tr("Runs and snapshots (*.memscope *.pickle *.pkl manifest.json);;Memscope runs "
           "(*.memscope);;Multi-rank runs (manifest.json);;PyTorch memory snapshots (*.pickle "
           "*.pkl);;All files (*)"));
    if (path.isEmpty()) {
        return;
    }
    appSettings().setValue(QLatin1String(k_last_dir_key), QFileInfo(path).absolutePath());
    openRun(path);
}

void MainWindow::openRunRangeDialog() {
    const QString dir =
        appSettings().value(QLatin1String(k_last_dir_key), QDir::currentPath()).toString();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Part of Run"), dir,
        tr("Runs and snapshots (*.memscope *.pickle *.pkl);;Memscope runs (*.memscope);;PyTorch "
           "memory snapshots (*.pickle *.pkl);;All files (*)"));
    if (path.isEmpty()) {
        return;
    }
    appSettings().setValue(QLatin1String(k_last_dir_key), QFileInfo(path).absolutePath());
    QString text;
    for (;;) {
        bool ok = false;
        text = QInputDialog::getText(
            this, tr("Open Part of Run"),
            tr("Range to load: event indices (1000000:2000000) or times since the start with a "
               "unit (2.5s:4s, 300ms:, :1.5min).\nAllocations live at its start count as present "
               "from the start. Leave empty for the whole run."),
            QLineEdit::Normal, text, &ok);
        if (!ok) {
            return;
        }
        try {
            openRun(path, RunRange::parse(text.toStdString()));
            return;
        } catch (const std::invalid_argument& e) {
            reportError(tr("Not a Range"), QString::fromStdString(e.what()));
        }
    }
}

std::shared_ptr<const Trace> MainWindow::loadTrace(const QString& path, QString& error,
                                                   const RunRange& range) {
    // Reading, decoding and finalizing a large file run on a worker while this loop keeps
    // painting and timers going (and the status bar's Cancel button working); a small one (well
    // under a frame's worth of work) is read here. RunSource opens any kind of run.
    const std::string file = QFile::encodeName(path).toStdString();
    const bool async = QFileInfo(path).size() >= k_async_load_bytes;
    RunSource::Options options;
    options.range = range;
    if (async) {
        RunLoadProgress* progress = m_load_progress;
        options.progress = [progress](double f) { progress->report(f); };
        options.cancel = progress->cancelFlag();
    }
    auto load = [file, options, &error]() -> std::shared_ptr<const Trace> {
        try {
            return std::make_shared<const Trace>(RunSource(file).open(options));
        } catch (const RunFileCancelled&) {
            error.clear();
        } catch (const std::exception& e) {
            error = QString::fromLocal8Bit(e.what());
        } catch (...) {
            error = tr("unknown error");
        }
        return nullptr;
    };
    std::shared_ptr<const Trace> trace;
    if (!async) {
        trace = load();
    } else {
        m_load_progress->start(true);
        QFutureWatcher<std::shared_ptr<const Trace>> watcher;
        QEventLoop loop;
        connect(&watcher, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit);
        watcher.setFuture(QtConcurrent::run(load));
        if (!watcher.isFinished()) {
            // User input too, for Cancel; m_loading keeps Open, Run and Compare disabled.
            loop.exec();
        }
        trace = watcher.result();
        m_load_progress->finish();
    }
    return trace;
}

bool MainWindow::openRun(const QString& path, const RunRange& range) {
    if (m_loading) {
        return false;
    }
    if (RunDirectory::isRunDirectory(QFile::encodeName(path).toStdString())) {
        return openRunDirectory(path, -1, range);  // its ranks, each a trace
    }
    if (runActive()) {
        reportError(tr("Run in Progress"), tr("Stop the current run before opening another one."));
        return false;
    }
    m_loading = true;
    updateActions();
    m_status_label->setText(tr("Opening %1...").arg(QDir::toNativeSeparators(path)));
    QApplication::setOverrideCursor(Qt::BusyCursor);
    QString error;
    std::shared_ptr<const Trace> trace = loadTrace(path, error, range);
    QApplication::restoreOverrideCursor();
    m_loading = false;
    updateActions();
    if (!trace && error.isEmpty()) {
        updateStatus();
        appendLog(tr("Opening %1 cancelled.").arg(QDir::toNativeSeparators(path)));
        return false;
    }
    if (!trace) {
        updateStatus();
        reportError(
            tr("Cannot Open Run"),
            tr("Memscope could not open %1.\n\n%2").arg(QDir::toNativeSeparators(path), error));
        return false;
    }
    clearRanks();
    showTrace(trace, path);
    addRecentFile(path);
    if (range.isAll()) {
        appendLog(tr("Opened %1: %2 events.")
                      .arg(QDir::toNativeSeparators(path))
                      .arg(QLocale().toString(qint64(trace->events.count()))));
    } else {
        appendLog(tr("Opened %1 (%2): %3 events.")
                      .arg(QDir::toNativeSeparators(path), QString::fromStdString(range.describe()))
                      .arg(QLocale().toString(qint64(trace->events.count()))));
    }
    return true;
}

void MainWindow::showTrace(std::shared_ptr<const Trace> trace, const QString& path) {
    m_trace = std::move(trace);
    m_run_path = path;
    m_timeline_page->setTrace(m_trace);
    m_timeline_stack->setCurrentWidget(m_timeline_page);
    showTraceInAnalysisTabs();
    setRunTabsVisible(m_trace != nullptr);
    const QString name = path.isEmpty() ? tr("Unsaved run") : QFileInfo(path).fileName();
    setWindowTitle(QStringLiteral("%1 - %2").arg(name, QStringLiteral(MEMSCOPE_NAME)));
    updateStatus();
    updateActions();
}

bool MainWindow::saveRun(const QString& path) {
    if (!m_trace) {
        return false;
    }
    try {
        RunFile::save(*m_trace, QFile::encodeName(path).toStdString());
    } catch (const std::exception& e) {
        reportError(tr("Cannot Save Run"),
                    tr("Memscope could not write %1.\n\n%2")
                        .arg(QDir::toNativeSeparators(path), QString::fromLocal8Bit(e.what())));
        return false;
    }
    m_run_path = path;
    addRecentFile(path);
    setWindowTitle(
        QStringLiteral("%1 - %2").arg(QFileInfo(path).fileName(), QStringLiteral(MEMSCOPE_NAME)));
    appendLog(tr("Saved %1.").arg(QDir::toNativeSeparators(path)));
    updateStatus();
    return true;
}

void MainWindow::saveRunDialog() {
    if (!m_trace) {
        return;
    }
    QString suggestion = m_run_path;
    if (suggestion.isEmpty() || !suggestion.endsWith(QLatin1String(".memscope"))) {
        const QString dir =
            appSettings().value(QLatin1String(k_last_dir_key), QDir::currentPath()).toString();
        const QString base =
            m_run_path.isEmpty() ? QStringLiteral("run") : QFileInfo(m_run_path).completeBaseName();
        suggestion = QDir(dir).filePath(base + QStringLiteral(".memscope"));
    }
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Run"), suggestion,
                                                      tr("Memscope runs (*.memscope)"));
    if (!path.isEmpty()) {
        appSettings().setValue(QLatin1String(k_last_dir_key), QFileInfo(path).absolutePath());
        saveRun(path);
    }
}

QStringList MainWindow::unfinishedJournals(const QString& dir) const {
    const QString runs =
        dir.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
                            QStringLiteral("/runs")
                      : dir;
    const QDateTime recent = QDateTime::currentDateTime().addSecs(-10);
    QStringList out;
    for (const std::string& journal :
         JournalRecovery::findJournals(QFile::encodeName(runs).toStdString())) {
        const QString path = QFile::decodeName(QByteArray::fromStdString(journal));
        if (QFileInfo(path).lastModified() < recent) {
            out << path;
        }
    }
    return out;
}

void MainWindow::offerRecovery() {
    const QStringList journals = unfinishedJournals();
    if (journals.isEmpty()) {
        return;
    }
    // Non-modal: the window stays usable, and nothing waits for an answer.
    auto* box = new QMessageBox(QMessageBox::Question, tr("Recover Unfinished Runs"),
                                tr("%n run(s) ended before they were saved (the app was closed "
                                   "or crashed). Recover what they recorded?",
                                   nullptr, int(journals.size())),
                                QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("recovery_offer"));
    box->setDetailedText(journals.join(QLatin1Char('\n')));
    QPushButton* recover = box->addButton(tr("Recover"), QMessageBox::AcceptRole);
    QPushButton* discard = box->addButton(tr("Discard"), QMessageBox::DestructiveRole);
    box->addButton(tr("Later"), QMessageBox::RejectRole);
    box->setDefaultButton(recover);
    box->setWindowModality(Qt::NonModal);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this,
            [this, journals, recover, discard](QAbstractButton* button) {
                if (button == recover) {
                    recoverJournals(journals);
                } else if (button == discard) {
                    for (const QString& j : journals) {
                        QFile::remove(j);
                    }
                    appendLog(tr("Discarded %n unfinished run(s).", nullptr, int(journals.size())));
                }
            });
    box->show();
}

void MainWindow::recoverJournals(const QStringList& journals) {
    struct Recovered {
        QStringList runs;
        QStringList lines;
    };
    auto work = [journals] {
        Recovered r;
        for (const QString& journal : journals) {
            const std::string file = QFile::encodeName(journal).toStdString();
            const QString run =
                QFile::decodeName(QByteArray::fromStdString(RunJournal::runPathFor(file)));
            try {
                const JournalRecovery::Result result = JournalRecovery::recover(file);
                RunFile::save(result.trace, QFile::encodeName(run).toStdString());
                QFile::remove(journal);
                r.runs << run;
                r.lines << tr("Recovered %1: %2")
                               .arg(QDir::toNativeSeparators(run),
                                    QString::fromStdString(result.describe()));
            } catch (const std::exception& e) {
                r.lines << tr("Could not recover %1: %2")
                               .arg(QDir::toNativeSeparators(journal),
                                    QString::fromLocal8Bit(e.what()));
            }
        }
        return r;
    };
    whenFinished(this, QtConcurrent::run(work), [this](Recovered r) {
        for (const QString& line : r.lines) {
            appendLog(line);
        }
        for (const QString& run : r.runs) {
            addRecentFile(run);
        }
        if (!r.runs.isEmpty() && !runActive() && !m_loading) {
            openRun(r.runs.last());
        }
    });
}

QStringList MainWindow::recentFiles() const {
    return appSettings().value(QLatin1String(k_recent_key)).toStringList();
}

void MainWindow::addRecentFile(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList files = recentFiles();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > k_max_recent) {
        files.removeLast();
    }
    appSettings().setValue(QLatin1String(k_recent_key), files);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    m_recent_menu->clear();
    const QStringList files = recentFiles();
    int number = 1;
    for (const QString& file : files) {
        QAction* action = m_recent_menu->addAction(
            QStringLiteral("&%1 %2").arg(number++).arg(QDir::toNativeSeparators(file)));
        action->setData(file);
        action->setEnabled(QFileInfo::exists(file));
        connect(action, &QAction::triggered, this, [this, file] { openRun(file); });
    }
    if (!files.isEmpty()) {
        m_recent_menu->addSeparator();
    }
    m_recent_menu->addAction(m_clear_recent_action);
    m_clear_recent_action->setEnabled(!files.isEmpty());
    m_recent_menu->setEnabled(true);
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

void MainWindow::addTab(QWidget* page, const QString& name, bool needs_run) {
    // In a scroll area, so that a page with many controls never forces the window wider or
    // taller than a laptop screen: below its own minimum it scrolls.
    auto* area = new QScrollArea(m_tabs);
    area->setObjectName(name);
    area->setProperty("needs_run", needs_run);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setWidget(page);
    const int index = m_tabs->addTab(area, QString());
    m_tabs->setTabVisible(index, !needs_run || m_trace != nullptr);
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
    m_operator_page = new OperatorPage(m_state, this);
    addTab(m_operator_page, QStringLiteral("operators"), true);
    m_allocations_page = new AllocationsPage(m_state, this);
    addTab(m_allocations_page, QStringLiteral("allocations"), true);
    m_summary_page = new SummaryPage(m_state, this);
    addTab(m_summary_page, QStringLiteral("summary"), true);
    m_segment_page = new SegmentPage(m_state, this);
    addTab(m_segment_page, QStringLiteral("segments"), true);
    m_flame_graph_page = new FlameGraphPage(m_state, this);
    addTab(m_flame_graph_page, QStringLiteral("flamegraph"), true);
    m_compare_page = new ComparePage(this);
    addTab(m_compare_page, QStringLiteral("compare"), false);
    m_tabs->setTabVisible(tabIndexOf(m_compare_page), false);  // until File > Compare With
    m_sweep_page = new SweepPage(this);
    addTab(m_sweep_page, QStringLiteral("sweeps"), false);
    m_planner_page = new PlannerPage(this);
    addTab(m_planner_page, QStringLiteral("planner"), false);

    // A pick in the allocation list pins it (the page sets the document) and shows the
    // timeline: switching tabs is the window's business.
    connect(m_allocations_page, &AllocationsPage::allocationSelected, this, [this](qint64 a) {
        m_state->setSelectedAllocation(a);
        m_tabs->setCurrentWidget(m_timeline_stack);
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] { syncCurrentTab(); });
    // The rank selector sets the document's rank; loading that rank's trace is the window's.
    connect(m_state, &RunDocument::rankChanged, this, [this](int rank) {
        if (rank < 0) {
            return;
        }
        if (m_rank_controller->isActive()) {
            if (rank != m_rank_controller->shownRank()) {
                // A live run: the chosen rank's snapshot follows at the next poll.
                m_timeline_page->setLiveTrace(nullptr, nullptr);
                m_rank_controller->showRank(rank);
            }
            return;
        }
        if (rank != m_rank && !showRank(rank)) {
            m_state->setRank(m_rank);  // no recording of that rank: the selector goes back
        }
    });
    connect(m_sweep_page, &SweepPage::runFileActivated, this,
            [this](const QString& path) { openRun(path); });
}

void MainWindow::showTraceInAnalysisTabs() {
    // The pages read the run when their tab is shown: filling all of them when a run finishes
    // would hold the event loop (the allocation lists sort every allocation).
    syncCurrentTab();
}

void MainWindow::syncCurrentTab() {
    QWidget* page = pageAt(m_tabs->currentIndex());
    if (!page || m_page_traces.value(page).lock() == m_trace) {
        return;
    }
    if (page == m_operator_page) {
        m_operator_page->setTrace(m_trace);
    } else if (page == m_allocations_page) {
        m_allocations_page->setTrace(m_trace);
    } else if (page == m_summary_page) {
        m_summary_page->setTrace(m_trace);
    } else if (page == m_segment_page) {
        m_segment_page->setTrace(m_trace);
    } else if (page == m_flame_graph_page) {
        m_flame_graph_page->setTrace(m_trace);  // with the document's filter and pinned time
    } else if (page == m_planner_page) {
        if (m_trace) {
            m_planner_page->setMeasuredTrace(m_trace);
        }
    } else {
        return;
    }
    // The pages select the document's pinned allocation themselves once they have the run
    // (the operator page's table of a large run comes later).
    m_page_traces.insert(page, m_trace);
}

bool MainWindow::openRunDirectory(const QString& path, int rank, const RunRange& range) {
    if (m_loading) {
        return false;
    }
    if (runActive()) {
        reportError(tr("Run in Progress"), tr("Stop the current run before opening another one."));
        return false;
    }
    const std::string where = QFile::encodeName(path).toStdString();
    std::optional<RunSource> source;
    try {
        source.emplace(where);
    } catch (const std::exception& e) {
        reportError(tr("Cannot Open Run"),
                    tr("Memscope could not open %1.\n\n%2")
                        .arg(QDir::toNativeSeparators(path), QString::fromLocal8Bit(e.what())));
        return false;
    }
    const RunDirectory& manifest = source->manifest();
    const std::string& dir = source->directory();
    QVector<std::shared_ptr<const Trace>> traces;
    QStringList paths;
    QStringList problems;
    m_loading = true;
    updateActions();
    QApplication::setOverrideCursor(Qt::BusyCursor);
    bool cancelled = false;
    for (int r = 0; r < manifest.world_size && !cancelled; ++r) {
        const QString file = QFile::decodeName(QByteArray::fromStdString(source->rankPath(r)));
        m_status_label->setText(tr("Opening rank %1 of %2...").arg(r).arg(manifest.world_size));
        paths.append(file);
        if (!QFileInfo::exists(file)) {
            traces.append(nullptr);
            problems.append(
                tr("rank %1: %2 is missing").arg(r).arg(QDir::toNativeSeparators(file)));
            continue;
        }
        QString error;
        auto trace = loadTrace(file, error, range);
        if (!trace && error.isEmpty()) {
            cancelled = true;
        } else if (!trace) {
            problems.append(tr("rank %1: %2").arg(r).arg(error));
        }
        traces.append(trace);
    }
    QApplication::restoreOverrideCursor();
    m_loading = false;
    updateActions();
    if (cancelled) {
        updateStatus();
        appendLog(tr("Opening %1 cancelled.").arg(QDir::toNativeSeparators(path)));
        return false;
    }
    for (const QString& problem : problems) {
        appendLog(problem);
    }
    const auto readable =
        std::count_if(traces.begin(), traces.end(), [](const auto& t) { return t != nullptr; });
    if (readable == 0) {
        updateStatus();
        reportError(tr("Cannot Open Run"),
                    tr("Memscope could not read any rank of %1.\n\n%2")
                        .arg(QDir::toNativeSeparators(path), problems.join(QLatin1Char('\n'))));
        return false;
    }
    m_rank_traces = traces;
    m_rank_paths = paths;
    m_rank_dir = QFile::decodeName(QByteArray::fromStdString(dir));
    if (rank < 0 || rank >= m_rank_traces.size() || !m_rank_traces[rank]) {
        rank = int(std::find_if(m_rank_traces.begin(), m_rank_traces.end(),
                                [](const auto& t) { return t != nullptr; }) -
                   m_rank_traces.begin());
    }
    m_rank = -1;
    showRank(rank);
    addRecentFile(m_rank_dir);
    appendLog(tr("Opened %1: %2 of %3 ranks, %4.")
                  .arg(QDir::toNativeSeparators(m_rank_dir))
                  .arg(readable)
                  .arg(manifest.world_size)
                  .arg(QString::fromStdString(manifest.parallel)));
    return true;
}

void MainWindow::clearRanks() {
    m_rank_traces.clear();
    m_rank_paths.clear();
    m_rank_dir.clear();
    m_rank = -1;
    m_timeline_page->setRanks({}, -1);
    m_summary_page->setRanks({}, -1);
    updateRankMenu();
}

bool MainWindow::showRank(int rank) {
    if (rank < 0 || rank >= m_rank_traces.size() || !m_rank_traces[rank]) {
        return false;
    }
    m_rank = rank;
    QStringList labels;
    QVector<SummaryPage::RankRow> rows;
    for (int r = 0; r < m_rank_traces.size(); ++r) {
        SummaryPage::RankRow row;
        row.rank = r;
        if (m_rank_traces[r]) {
            row = SummaryPage::rankRowOf(r, *m_rank_traces[r]);
            labels.append(tr("%1 (peak %2)").arg(r).arg(humanBytes(row.peak_bytes)));
        } else {
            row.missing = true;
            labels.append(tr("%1 (no recording)").arg(r));
        }
        rows.append(row);
    }
    showTrace(m_rank_traces[rank], m_rank_paths.value(rank));
    m_timeline_page->setRanks(labels, rank);
    m_summary_page->setRanks(rows, rank);
    setWindowTitle(QStringLiteral("%1 - %2 - %3")
                       .arg(QFileInfo(m_rank_dir).fileName(), tr("rank %1").arg(rank),
                            QStringLiteral(MEMSCOPE_NAME)));
    updateRankMenu();
    return true;
}

void MainWindow::updateRankMenu() {
    if (!m_compare_rank_menu) {
        return;
    }
    m_compare_rank_menu->clear();
    for (int r = 0; r < m_rank_traces.size(); ++r) {
        if (r == m_rank || !m_rank_traces[r]) {
            continue;
        }
        QAction* action = m_compare_rank_menu->addAction(tr("Rank %1").arg(r));
        connect(action, &QAction::triggered, this, [this, r] { compareWithRank(r); });
    }
    m_compare_rank_menu->menuAction()->setVisible(m_rank_traces.size() > 1);
    m_compare_rank_menu->setEnabled(!m_compare_rank_menu->isEmpty());
}

bool MainWindow::compareWithRank(int rank) {
    if (!m_trace || rank < 0 || rank >= m_rank_traces.size() || !m_rank_traces[rank] ||
        rank == m_rank) {
        return false;
    }
    compareTraces(m_rank_traces[rank], tr("rank %1").arg(rank));
    return true;
}

void MainWindow::compareTraces(std::shared_ptr<const Trace> other, const QString& other_name) {
    const QString this_name = m_rank >= 0            ? tr("rank %1").arg(m_rank)
                              : m_run_path.isEmpty() ? tr("Unsaved run")
                                                     : QFileInfo(m_run_path).fileName();
    m_compare_page->setRuns(m_trace, std::move(other), this_name, other_name);
    const int index = tabIndexOf(m_compare_page);
    m_tabs->setTabVisible(index, true);
    m_tabs->setCurrentIndex(index);
    appendLog(tr("Comparing %1 with %2.").arg(this_name, other_name));
}

bool MainWindow::compareWith(const QString& path) {
    if (!m_trace) {
        return false;
    }
    // A run directory (another strategy, say) compares by its rank of the same number as the
    // rank shown here (rank 0 when it has fewer ranks).
    QString file = path;
    QString name = QFileInfo(path).fileName();
    const std::string where = QFile::encodeName(path).toStdString();
    try {
        const RunSource source(where);
        if (source.isMultiRank()) {
            const int rank = m_rank >= 0 && m_rank < source.worldSize() ? m_rank : 0;
            file = QFile::decodeName(QByteArray::fromStdString(source.rankPath(rank)));
            name =
                tr("%1 rank %2")
                    .arg(QFileInfo(QFile::decodeName(QByteArray::fromStdString(source.directory())))
                             .fileName())
                    .arg(rank);
        }
    } catch (const std::exception& e) {
        reportError(tr("Cannot Open Run"),
                    tr("Memscope could not open %1.\n\n%2")
                        .arg(QDir::toNativeSeparators(path), QString::fromLocal8Bit(e.what())));
        return false;
    }
    QApplication::setOverrideCursor(Qt::BusyCursor);
    m_loading = true;
    updateActions();
    QString error;
    std::shared_ptr<const Trace> other = loadTrace(file, error);
    m_loading = false;
    updateActions();
    QApplication::restoreOverrideCursor();
    if (!other && error.isEmpty()) {
        return false;  // cancelled
    }
    if (!other) {
        reportError(
            tr("Cannot Open Run"),
            tr("Memscope could not open %1.\n\n%2").arg(QDir::toNativeSeparators(file), error));
        return false;
    }
    compareTraces(other, name);
    return true;
}

void MainWindow::compareWithDialog() {
    if (!m_trace) {
        return;
    }
    const QString dir =
        appSettings().value(QLatin1String(k_last_dir_key), QDir::currentPath()).toString();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Compare With Run"), dir,
        tr("Runs and snapshots (*.memscope *.pickle *.pkl manifest.json);;Memscope runs "
           "(*.memscope);;Multi-rank runs (manifest.json);;PyTorch memory snapshots (*.pickle "
           "*.pkl);;All files (*)"));
    if (!path.isEmpty()) {
        compareWith(path);
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
        return m_timeline_stack->currentWidget() == m_timeline_page
                   ? static_cast<QWidget*>(m_timeline_page->view())
                   : m_placeholder;
    }
    return page;
}

bool MainWindow::exportView(const QString& path, double scale, const QSize& size, QString* error) {
    QWidget* widget = currentExportWidget();
    auto fail = [&](const QString& message) {
        if (error) {
            *error = message;
        }
        return false;
    };
    if (!widget) {
        return fail(tr("There is no view to export."));
    }
    scale = std::clamp(scale, 1.0, 4.0);
    auto* timeline = qobject_cast<TimelineView*>(widget);
    const QSize target = size.isEmpty() ? widget->size() : size;
    const bool svg =
        QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0;
    // Views other than the timeline render at the target size: resized for the moment.
    auto renderWidget = [&](QPainter& painter) {
        const QSize old = widget->size();
        widget->resize(target);
        widget->render(&painter);
        widget->resize(old);
    };
    if (svg) {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(target);
        generator.setViewBox(QRect(QPoint(0, 0), target));
        generator.setTitle(m_tabs->tabText(m_tabs->currentIndex()));
        generator.setDescription(
            tr("Exported from %1 %2")
                .arg(QStringLiteral(MEMSCOPE_NAME), QStringLiteral(MEMSCOPE_VERSION)));
        QPainter painter;
        if (!painter.begin(&generator)) {
            return fail(tr("Cannot write %1.").arg(QDir::toNativeSeparators(path)));
        }
        if (timeline) {
            timeline->renderTo(painter, QRectF(QPointF(0, 0), QSizeF(target)));
        } else {
            renderWidget(painter);
        }
        painter.end();
        if (!QFileInfo::exists(path)) {
            return fail(tr("Cannot write %1.").arg(QDir::toNativeSeparators(path)));
        }
        return true;
    }
    QImage image;
    if (timeline) {
        image = timeline->renderImage(target, scale);
    } else {
        image = QImage(QSize(qRound(target.width() * scale), qRound(target.height() * scale)),
                       QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(scale);
        image.fill(Qt::white);
        QPainter painter(&image);
        renderWidget(painter);
    }
    if (image.isNull() || !image.save(path, "PNG")) {
        return fail(tr("Cannot write %1.").arg(QDir::toNativeSeparators(path)));
    }
    return true;
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
    QString error;
    if (!exportView(dialog.path(), dialog.scale(), dialog.targetSize(), &error)) {
        reportError(tr("Cannot Export View"), error);
        return;
    }
    appSettings().setValue(QLatin1String(k_export_dir_key),
                           QFileInfo(dialog.path()).absolutePath());
    appendLog(tr("Exported the view to %1.").arg(QDir::toNativeSeparators(dialog.path())));
}

// --- runs

void MainWindow::startRun() {
    if (runActive() || m_loading) {
        return;
    }
    const auto options = m_run_panel->validatedOptions();
    if (!options) {
        m_run_dock->show();
        m_run_dock->raise();
        return;
    }
    if (m_run_panel->processes() > 1) {
        startRankRun(*options);
        return;
    }
    QString error;
    if (!m_controller->start(*options, m_run_panel->recordShapes(), &error)) {
        m_run_panel->validatedOptions();
        reportError(tr("Cannot Start Run"), error);
        return;
    }
    m_run_panel->saveSettings();
    showLiveRunStarting(options->num_steps + options->warmup_steps);
}

void MainWindow::showLiveRunStarting(qint64 total) {
    m_live_step = 0;
    m_live_total = total;
    clearRanks();
    m_trace.reset();
    m_run_path.clear();
    m_timeline_page->setTrace(nullptr);
    m_timeline_stack->setCurrentWidget(m_timeline_page);
    m_tabs->setCurrentWidget(m_timeline_stack);
    setRunTabsVisible(false);
    m_progress->setRange(0, int(m_live_total));
    m_progress->setValue(0);
    m_progress->show();
    m_step_label->setText(tr("Starting..."));
    m_eta_label->clear();
    m_peak_label->clear();
    setWindowTitle(QStringLiteral("%1 - %2").arg(tr("Recording"), QStringLiteral(MEMSCOPE_NAME)));
    updateActions();
    updateStatus();
}

void MainWindow::stopRun() {
    m_controller->stop();
    m_rank_controller->stop();
}

bool MainWindow::runActive() const {
    return m_controller->isActive() || m_rank_controller->isActive();
}

// --- multi-process runs

void MainWindow::startRankRun(const TrainOptions& options) {
    RankRunController::Request request;
    request.options = options;
    request.recordShapes = m_run_panel->recordShapes();
    request.processes = m_run_panel->processes();
    request.parallel = m_run_panel->parallel();
    request.bucketMib = m_run_panel->bucketMib();
    request.directory = m_run_panel->outputDirectory();
    QString error;
    if (!m_rank_controller->start(request, &error)) {
        m_run_panel->showProblem(error);
        reportError(tr("Cannot Start Run"), error);
        return;
    }
    m_run_panel->saveSettings();
    showLiveRunStarting(options.num_steps + options.warmup_steps);
    m_timeline_page->setRanks(m_rank_controller->rankLabels(), m_rank_controller->shownRank());
}

void MainWindow::onRankRunFinished(const QString& directory, bool cancelled, const QString& error,
                                   int rank_files) {
    m_progress->hide();
    m_eta_label->clear();
    if (!error.isEmpty()) {
        m_step_label->setText(tr("Failed: %1").arg(error.section(QLatin1Char('\n'), 0, 0)));
        appendLog(tr("The run failed: %1").arg(error));
        m_run_panel->showProblem(error);
    } else if (cancelled) {
        m_step_label->setText(tr("Stopped after step %1 of %2").arg(m_live_step).arg(m_live_total));
        appendLog(tr("The run was stopped; every rank kept what it recorded."));
    } else {
        m_step_label->setText(tr("Finished %1 steps").arg(m_live_total));
        appendLog(tr("The run finished."));
    }
    updateActions();
    if (rank_files == 0) {
        m_timeline_page->setRanks({}, -1);
        appendLog(
            tr("No rank recorded anything into %1.").arg(QDir::toNativeSeparators(directory)));
        updateStatus();
        return;
    }
    // What the ranks saved, opened as File > Open opens a run directory.
    const QString step_text = m_step_label->text();
    openRunDirectory(directory, m_rank_controller->shownRank());
    m_step_label->setText(step_text);
    setRunTabsVisible(true);
    updateStatus();
}

void MainWindow::onSnapshot(std::shared_ptr<const Trace> trace,
                            std::shared_ptr<TimelineLayout> layout) {
    m_trace = trace;
    m_timeline_page->setLiveTrace(std::move(trace), std::move(layout));
    if (m_peak_label->text().isEmpty() && m_timeline_page->view()->timelineLayout()) {
        m_peak_label->setText(
            tr("Peak %1").arg(humanBytes(m_timeline_page->view()->timelineLayout()->peakBytes())));
    }
}

void MainWindow::onStep(qint64 step, qint64 total, double, double left, qint64 peak,
                        const QString& line) {
    // (A multi-process run's lines come from memscope-cli's output: `line` is empty.)
    m_live_step = step;
    m_live_total = total;
    m_progress->setRange(0, int(total));
    m_progress->setValue(int(step));
    m_step_label->setText(tr("Step %1 of %2").arg(step).arg(total));
    m_eta_label->setText(step < total ? tr("about %1 left").arg(humanDuration(left))
                                      : tr("finishing"));
    m_peak_label->setText(tr("Peak %1").arg(humanBytes(peak)));
    if (!line.isEmpty()) {
        appendLog(line);
    }
}

void MainWindow::onRunFinished(std::shared_ptr<const Trace> trace,
                               std::shared_ptr<TimelineLayout> layout, bool cancelled,
                               bool out_of_memory, const QString& error, const QString& saved_path,
                               const QString& save_error) {
    m_trace = trace;
    m_run_path.clear();
    if (trace) {
        m_timeline_page->setLiveTrace(trace, std::move(layout));
        showTraceInAnalysisTabs();
        setRunTabsVisible(true);
    }
    m_progress->hide();
    if (out_of_memory) {
        m_step_label->setText(tr("Out of memory at step %1").arg(m_live_step + 1));
    } else if (!error.isEmpty()) {
        m_step_label->setText(tr("Failed"));
    } else if (cancelled) {
        m_step_label->setText(tr("Stopped after step %1 of %2").arg(m_live_step).arg(m_live_total));
    } else {
        m_step_label->setText(tr("Finished %1 steps").arg(m_live_total));
    }
    m_eta_label->clear();
    if (trace && m_timeline_page->view()->timelineLayout()) {
        m_peak_label->setText(
            tr("Peak %1").arg(humanBytes(m_timeline_page->view()->timelineLayout()->peakBytes())));
    }
    // Nothing recorded is lost: the controller kept every run as a file on its worker, also
    // when it was stopped or ran out of memory. Save As copies it wherever the user wants.
    if (!saved_path.isEmpty()) {
        m_run_path = saved_path;
        addRecentFile(saved_path);
        appendLog(tr("The run was kept as %1 (File > Save Run As to put it elsewhere).")
                      .arg(QDir::toNativeSeparators(saved_path)));
    } else if (!save_error.isEmpty()) {
        appendLog(save_error);
    }
    const QString name =
        m_run_path.isEmpty() ? tr("Unsaved run") : QFileInfo(m_run_path).fileName();
    setWindowTitle(QStringLiteral("%1 - %2").arg(name, QStringLiteral(MEMSCOPE_NAME)));
    updateActions();
    updateStatus();
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
    if (m_rank_controller->isActive()) {
        m_status_label->setText(
            tr("Recording %1 on %2 processes (%3)")
                .arg(QString::fromStdString(m_rank_controller->request().options.preset))
                .arg(m_rank_controller->worldSize())
                .arg(m_rank_controller->request().parallel));
        return;
    }
    if (m_controller->isActive()) {
        m_status_label->setText(
            tr("Recording %1").arg(QString::fromStdString(m_controller->options().preset)));
        return;
    }
    if (m_loading) {
        return;
    }
    if (!m_trace) {
        m_status_label->setText(tr("No run open"));
        return;
    }
    if (m_run_path.isEmpty()) {
        m_status_label->setText(tr("Unsaved run"));
        return;
    }
    m_status_label->setText(tr("%1 open").arg(QDir::toNativeSeparators(m_run_path)));
}

void MainWindow::updateActions() {
    const bool active = runActive();
    m_run_action->setEnabled(!active && !m_loading);
    m_stop_action->setEnabled(active);
    m_open_action->setEnabled(!active && !m_loading);
    m_open_range_action->setEnabled(!active && !m_loading);
    m_recent_menu->setEnabled(!active && !m_loading);
    m_save_action->setEnabled(!active && m_trace != nullptr);
    m_compare_action->setEnabled(!active && !m_loading && m_trace != nullptr);
    m_export_action->setEnabled(!m_loading);
    m_find_action->setEnabled(m_trace != nullptr);
    m_find_next_action->setEnabled(m_trace != nullptr);
    m_find_previous_action->setEnabled(m_trace != nullptr);
    m_run_panel->setRunning(active);
}

void MainWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
    QMainWindow::changeEvent(event);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (m_loading) {
        m_load_progress->cancel();  // the worker stops at its next chunk
    }
    if (m_controller->isActive()) {
        // The controller's destructor stops the run and waits for it.
        m_controller->stop();
    }
    m_rank_controller->stop();  // every rank saves; the destructor waits for them
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

    m_clear_recent_action = new QAction(this);
    m_clear_recent_action->setObjectName(QStringLiteral("action_clear_recent"));
    connect(m_clear_recent_action, &QAction::triggered, this, [this] {
        appSettings().remove(QLatin1String(k_recent_key));
        updateRecentMenu();
    });

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
        if (!m_trace) {
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
    m_recent_menu = m_file_menu->addMenu(QString());
    m_recent_menu->setObjectName(QStringLiteral("menu_recent"));
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
    central_layout->addWidget(m_tabs, 1);
    setCentralWidget(central);
    createAnalysisTabs();
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
    m_step_label = new QLabel(this);
    m_step_label->setObjectName(QStringLiteral("status_step"));
    statusBar()->addPermanentWidget(m_step_label);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("status_progress"));
    m_progress->setMaximumWidth(160);
    m_progress->setTextVisible(false);
    m_progress->hide();
    statusBar()->addPermanentWidget(m_progress);
    m_load_progress = new RunLoadProgress(this);
    statusBar()->addPermanentWidget(m_load_progress);
    m_eta_label = new QLabel(this);
    m_eta_label->setObjectName(QStringLiteral("status_eta"));
    statusBar()->addPermanentWidget(m_eta_label);
    m_peak_label = new QLabel(this);
    m_peak_label->setObjectName(QStringLiteral("status_peak"));
    statusBar()->addPermanentWidget(m_peak_label);
}

void MainWindow::retranslateUi() {
    m_file_menu->setTitle(tr("&File"));
    m_recent_menu->setTitle(tr("Open &Recent"));
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
    m_clear_recent_action->setText(tr("Clear Recent Files"));
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
    m_tabs->setTabText(tabIndexOf(m_compare_page), tr("&Compare"));
    m_tabs->setTabText(tabIndexOf(m_sweep_page), tr("S&weeps"));
    m_tabs->setTabText(tabIndexOf(m_planner_page), tr("&Planner"));

    m_placeholder_title->setText(tr("No run is open."));
    m_placeholder_detail->setText(
        tr("Press Run (F5) to train with the settings on the left and watch the memory live, "
           "open a recorded run or a PyTorch snapshot with File > Open Run (Ctrl+O), or drop "
           "one here."));
    updateRecentMenu();
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
