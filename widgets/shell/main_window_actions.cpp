#include "shell/main_window_actions.h"

#include "run_document.h"
#include "run_session.h"
#include "shell/main_window.h"
#include "shell/recent_files_menu.h"

#include <QAction>
#include <QApplication>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>

namespace memscope {

MainWindowActions::MainWindowActions(MainWindow* window, RunDocument* document, RunSession* session)
    : QObject(window), m_window(window), m_session(session) {
    createActions(document);
    createMenus();
}

void MainWindowActions::createActions(RunDocument* document) {
    MainWindow* window = m_window;
    m_open = new QAction(window);
    m_open->setObjectName(QStringLiteral("action_open"));
    m_open->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_O));
    connect(m_open, &QAction::triggered, window, &MainWindow::openRunDialog);
    m_open_range = new QAction(window);
    m_open_range->setObjectName(QStringLiteral("action_open_range"));
    connect(m_open_range, &QAction::triggered, window, &MainWindow::openRunRangeDialog);

    m_save = new QAction(window);
    m_save->setObjectName(QStringLiteral("action_save"));
    m_save->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_S));
    connect(m_save, &QAction::triggered, window, &MainWindow::saveRunDialog);

    m_export = new QAction(window);
    m_export->setObjectName(QStringLiteral("action_export_view"));
    m_export->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(m_export, &QAction::triggered, window, &MainWindow::exportViewDialog);

    m_compare = new QAction(window);
    m_compare->setObjectName(QStringLiteral("action_compare"));
    connect(m_compare, &QAction::triggered, window, &MainWindow::compareWithDialog);

    m_quit = new QAction(window);
    m_quit->setObjectName(QStringLiteral("action_quit"));
    // Spelled out: QKeySequence::Quit is empty on platforms without a desktop theme.
    m_quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    m_quit->setMenuRole(QAction::QuitRole);
    connect(m_quit, &QAction::triggered, window, &QWidget::close);

    m_run = new QAction(window);
    m_run->setObjectName(QStringLiteral("action_run"));
    m_run->setShortcut(QKeySequence(Qt::Key_F5));
    connect(m_run, &QAction::triggered, window, &MainWindow::startRun);

    m_stop = new QAction(window);
    m_stop->setObjectName(QStringLiteral("action_stop"));
    m_stop->setShortcut(QKeySequence(Qt::Key_Escape));
    // Window-wide, but the timeline's own Esc (unpin) wins while it has focus and no run goes.
    m_stop->setShortcutContext(Qt::WindowShortcut);
    connect(m_stop, &QAction::triggered, window, &MainWindow::stopRun);

    // What Find, Find Next and Find Previous do is the timeline's (MainWindow connects them).
    m_find = new QAction(window);
    m_find->setObjectName(QStringLiteral("action_find"));
    m_find->setShortcut(QKeySequence::Find);
    m_find_next = new QAction(window);
    m_find_next->setObjectName(QStringLiteral("action_find_next"));
    m_find_next->setShortcut(QKeySequence(Qt::Key_F3));
    m_find_previous = new QAction(window);
    m_find_previous->setObjectName(QStringLiteral("action_find_previous"));
    m_find_previous->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3));
    m_annotations = new QAction(window);
    m_annotations->setObjectName(QStringLiteral("action_annotations"));
    m_annotations->setCheckable(true);
    m_clear_filter = new QAction(window);
    m_clear_filter->setObjectName(QStringLiteral("action_clear_filter"));
    connect(m_clear_filter, &QAction::triggered, document, &RunDocument::clearFilter);

    m_about = new QAction(window);
    m_about->setObjectName(QStringLiteral("action_about"));
    m_about->setMenuRole(QAction::AboutRole);
    connect(m_about, &QAction::triggered, window, &MainWindow::showAbout);

    m_about_qt = new QAction(window);
    m_about_qt->setObjectName(QStringLiteral("action_about_qt"));
    m_about_qt->setMenuRole(QAction::AboutQtRole);
    connect(m_about_qt, &QAction::triggered, qApp, &QApplication::aboutQt);
}

void MainWindowActions::createMenus() {
    MainWindow* window = m_window;
    QMenuBar* bar = window->menuBar();
    m_file_menu = bar->addMenu(QString());
    m_file_menu->setObjectName(QStringLiteral("menu_file"));
    m_file_menu->addAction(m_open);
    m_file_menu->addAction(m_open_range);
    m_recent_menu = new RecentFilesMenu(window);
    connect(m_recent_menu, &RecentFilesMenu::fileChosen, window,
            [window](const QString& file) { window->openRun(file); });
    m_file_menu->addMenu(m_recent_menu);
    m_file_menu->addAction(m_save);
    m_file_menu->addAction(m_compare);
    m_compare_rank_menu = m_file_menu->addMenu(QString());
    m_compare_rank_menu->setObjectName(QStringLiteral("menu_compare_rank"));
    m_compare_rank_menu->menuAction()->setVisible(false);
    m_file_menu->addSeparator();
    m_file_menu->addAction(m_export);
    m_file_menu->addSeparator();
    m_file_menu->addAction(m_quit);

    m_run_menu = bar->addMenu(QString());
    m_run_menu->setObjectName(QStringLiteral("menu_run"));
    m_run_menu->addAction(m_run);
    m_run_menu->addAction(m_stop);

    m_view_menu = bar->addMenu(QString());
    m_view_menu->setObjectName(QStringLiteral("menu_view"));
    m_view_menu->addAction(m_find);
    m_view_menu->addAction(m_find_next);
    m_view_menu->addAction(m_find_previous);
    m_view_menu->addSeparator();
    m_view_menu->addAction(m_annotations);
    m_view_menu->addAction(m_clear_filter);
    m_view_menu->addSeparator();

    m_help_menu = bar->addMenu(QString());
    m_help_menu->setObjectName(QStringLiteral("menu_help"));
    m_help_menu->addAction(m_about);
    m_help_menu->addAction(m_about_qt);
}

void MainWindowActions::update(bool recording, bool loading, bool has_run) {
    m_run->setEnabled(!recording && !loading);
    m_stop->setEnabled(recording);
    m_open->setEnabled(!recording && !loading);
    m_open_range->setEnabled(!recording && !loading);
    m_recent_menu->setEnabled(!recording && !loading);
    m_save->setEnabled(!recording && has_run);
    m_compare->setEnabled(!recording && !loading && has_run);
    m_export->setEnabled(!loading);
    m_find->setEnabled(has_run);
    m_find_next->setEnabled(has_run);
    m_find_previous->setEnabled(has_run);
}

void MainWindowActions::updateRankMenu() {
    m_compare_rank_menu->clear();
    for (int r = 0; r < m_session->rankCount(); ++r) {
        if (r == m_session->rank() || !m_session->rankTrace(r)) {
            continue;
        }
        QAction* action = m_compare_rank_menu->addAction(tr("Rank %1").arg(r));
        connect(action, &QAction::triggered, m_window,
                [window = m_window, r] { window->compareWithRank(r); });
    }
    m_compare_rank_menu->menuAction()->setVisible(m_session->rankCount() > 1);
    m_compare_rank_menu->setEnabled(!m_compare_rank_menu->isEmpty());
}

void MainWindowActions::retranslate() {
    m_file_menu->setTitle(tr("&File"));
    m_run_menu->setTitle(tr("&Run"));
    m_view_menu->setTitle(tr("&View"));
    m_help_menu->setTitle(tr("&Help"));
    m_find->setText(tr("&Find..."));
    m_find->setStatusTip(
        tr("Search allocations by address, operator, module, category or stack frame"));
    m_find_next->setText(tr("Find &Next"));
    m_find_previous->setText(tr("Find &Previous"));
    m_annotations->setText(tr("&Annotations"));
    m_annotations->setStatusTip(
        tr("Show steps, phases, recomputations and imported annotations on the timeline"));
    m_clear_filter->setText(tr("&Clear Range Filter"));
    m_clear_filter->setStatusTip(
        tr("Show every allocation again (Ctrl+drag on the timeline sets a range filter)"));
    m_open->setText(tr("&Open Run..."));
    m_open->setStatusTip(tr("Open a recorded .memscope run or a PyTorch memory snapshot"));
    m_open_range->setText(tr("Open &Part of Run..."));
    m_open_range->setStatusTip(tr("Open only an event or time range of a big .memscope run"));
    m_save->setText(tr("&Save Run As..."));
    m_save->setStatusTip(tr("Write the open run to a .memscope file"));
    m_export->setText(tr("&Export View..."));
    m_export->setStatusTip(tr("Save the current view as a PNG image or an SVG drawing"));
    m_compare->setText(tr("&Compare With Run..."));
    m_compare->setStatusTip(tr("Open a second run and compare it with this one side by side"));
    m_compare_rank_menu->setTitle(tr("Compare With &Rank"));
    updateRankMenu();
    m_quit->setText(tr("&Quit"));
    m_quit->setStatusTip(tr("Quit Memscope"));
    m_run->setText(tr("&Run"));
    m_run->setStatusTip(tr("Train with the run panel's settings and record every allocation"));
    m_stop->setText(tr("&Stop"));
    m_stop->setStatusTip(tr("Stop the run; everything recorded so far is kept"));
    m_about->setText(tr("&About Memscope"));
    m_about->setStatusTip(tr("Show the versions of Memscope, Qt, LibTorch and the device"));
    m_about_qt->setText(tr("About &Qt"));
    m_about_qt->setStatusTip(tr("Show information about Qt"));
}

}  // namespace memscope
