#include "main_window.h"

#include "io/run_file.h"
#include "timeline_page.h"
#include "trace/trace.h"

#include <torch/version.h>  // only the version macros: keeps LibTorch's big headers out of widgets

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFont>
#include <QIcon>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QVBoxLayout>
#include <QWidget>

#include <exception>
#include <memory>

#include "memscope_version.h"

namespace memscope {
namespace {

// Explicit names rather than QCoreApplication's, so that tests and tools that build a MainWindow
// without setting the application name still use the same settings.
constexpr auto k_settings_organization = "Memscope";
constexpr auto k_settings_application = "Memscope";
constexpr auto k_geometry_key = "main_window/geometry";
constexpr auto k_state_key = "main_window/state";
constexpr auto k_last_dir_key = "main_window/last_run_dir";

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName(QStringLiteral("main_window"));
    // A product name, not a phrase: the same in every language.
    setWindowTitle(QStringLiteral(MEMSCOPE_NAME));
    setWindowIcon(QIcon(QStringLiteral(":/icons/memscope.svg")));

    createActions();
    createMenus();
    createCentralWidget();
    createStatusBar();
    retranslateUi();
    restoreWindowState();
}

MainWindow::~MainWindow() = default;

QString MainWindow::aboutText() {
    return tr("<h3>%1 %2</h3>"
              "<p>A memory profiler for Tiny LLaMA training: it records every tensor allocation "
              "and shows where the memory goes.</p>"
              "<p>Qt %3<br/>LibTorch %4</p>")
        .arg(QStringLiteral(MEMSCOPE_NAME), QStringLiteral(MEMSCOPE_VERSION),
             QString::fromLatin1(qVersion()), QStringLiteral(TORCH_VERSION));
}

void MainWindow::showAbout() {
    QMessageBox::about(this, tr("About Memscope"), aboutText());
}

void MainWindow::openRunDialog() {
    QSettings settings{QLatin1String(k_settings_organization),
                       QLatin1String(k_settings_application)};
    const QString dir =
        settings.value(QLatin1String(k_last_dir_key), QDir::currentPath()).toString();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Run"), dir, tr("Memscope runs (*.memscope);;All files (*)"));
    if (path.isEmpty()) {
        return;
    }
    settings.setValue(QLatin1String(k_last_dir_key), QFileInfo(path).absolutePath());
    openRun(path);
}

bool MainWindow::openRun(const QString& path) {
    std::shared_ptr<const Trace> trace;
    QString error;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    try {
        trace = std::make_shared<const Trace>(RunFile::load(QFile::encodeName(path).toStdString()));
    } catch (const std::exception& e) {
        error = QString::fromLocal8Bit(e.what());
    }
    QApplication::restoreOverrideCursor();
    if (!trace) {
        QMessageBox::warning(
            this, tr("Cannot Open Run"),
            tr("Memscope could not open %1.\n\n%2").arg(QDir::toNativeSeparators(path), error));
        return false;
    }
    m_run_path = path;
    m_timeline_page->setTrace(trace);
    m_stack->setCurrentWidget(m_timeline_page);
    setWindowTitle(
        QStringLiteral("%1 - %2").arg(QFileInfo(path).fileName(), QStringLiteral(MEMSCOPE_NAME)));
    updateStatus();
    return true;
}

void MainWindow::updateStatus() {
    if (m_run_path.isEmpty()) {
        m_status_label->setText(tr("No run open"));
        return;
    }
    m_status_label->setText(tr("%1 open").arg(QDir::toNativeSeparators(m_run_path)));
}

void MainWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
    QMainWindow::changeEvent(event);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    saveWindowState();
    QMainWindow::closeEvent(event);
}

void MainWindow::createActions() {
    m_open_action = new QAction(this);
    m_open_action->setObjectName(QStringLiteral("action_open"));
    m_open_action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_O));
    connect(m_open_action, &QAction::triggered, this, &MainWindow::openRunDialog);

    m_quit_action = new QAction(this);
    m_quit_action->setObjectName(QStringLiteral("action_quit"));
    // Spelled out: QKeySequence::Quit is empty on platforms without a desktop theme.
    m_quit_action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    m_quit_action->setMenuRole(QAction::QuitRole);
    connect(m_quit_action, &QAction::triggered, this, &QWidget::close);

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
    m_file_menu->addSeparator();
    m_file_menu->addAction(m_quit_action);

    m_help_menu = menuBar()->addMenu(QString());
    m_help_menu->setObjectName(QStringLiteral("menu_help"));
    m_help_menu->addAction(m_about_action);
    m_help_menu->addAction(m_about_qt_action);
}

void MainWindow::createCentralWidget() {
    auto* central = new QWidget(this);
    central->setObjectName(QStringLiteral("placeholder"));
    auto* layout = new QVBoxLayout(central);
    layout->addStretch();

    m_placeholder_title = new QLabel(central);
    m_placeholder_title->setObjectName(QStringLiteral("placeholder_title"));
    m_placeholder_title->setAlignment(Qt::AlignCenter);
    QFont title_font = m_placeholder_title->font();
    title_font.setPointSizeF(title_font.pointSizeF() * 1.5);
    m_placeholder_title->setFont(title_font);
    layout->addWidget(m_placeholder_title);

    m_placeholder_detail = new QLabel(central);
    m_placeholder_detail->setObjectName(QStringLiteral("placeholder_detail"));
    m_placeholder_detail->setAlignment(Qt::AlignCenter);
    m_placeholder_detail->setWordWrap(true);
    m_placeholder_detail->setEnabled(false);  // the disabled palette greys the secondary line
    layout->addWidget(m_placeholder_detail);

    layout->addStretch();

    m_timeline_page = new TimelinePage(this);
    m_stack = new QStackedWidget(this);
    m_stack->setObjectName(QStringLiteral("central_stack"));
    m_stack->addWidget(central);
    m_stack->addWidget(m_timeline_page);
    setCentralWidget(m_stack);
}

void MainWindow::createStatusBar() {
    // A widget rather than showMessage(): status tips of hovered actions would erase a message.
    m_status_label = new QLabel(this);
    m_status_label->setObjectName(QStringLiteral("status_label"));
    statusBar()->addWidget(m_status_label, 1);
}

void MainWindow::retranslateUi() {
    m_file_menu->setTitle(tr("&File"));
    m_help_menu->setTitle(tr("&Help"));
    m_open_action->setText(tr("&Open Run..."));
    m_open_action->setStatusTip(tr("Open a recorded .memscope run"));
    m_quit_action->setText(tr("&Quit"));
    m_quit_action->setStatusTip(tr("Quit Memscope"));
    m_about_action->setText(tr("&About Memscope"));
    m_about_action->setStatusTip(tr("Show the versions of Memscope, Qt and LibTorch"));
    m_about_qt_action->setText(tr("About &Qt"));
    m_about_qt_action->setStatusTip(tr("Show information about Qt"));

    m_placeholder_title->setText(tr("No run is open."));
    m_placeholder_detail->setText(
        tr("Open a recorded run with File > Open Run (Ctrl+O), or record one with "
           "memscope-cli record."));
    updateStatus();
}

void MainWindow::restoreWindowState() {
    const QSettings settings{QLatin1String(k_settings_organization),
                             QLatin1String(k_settings_application)};
    if (!restoreGeometry(settings.value(QLatin1String(k_geometry_key)).toByteArray())) {
        resize(1024, 640);
    }
    restoreState(settings.value(QLatin1String(k_state_key)).toByteArray());
}

void MainWindow::saveWindowState() const {
    QSettings settings{QLatin1String(k_settings_organization),
                       QLatin1String(k_settings_application)};
    settings.setValue(QLatin1String(k_geometry_key), saveGeometry());
    settings.setValue(QLatin1String(k_state_key), saveState());
}

}  // namespace memscope
