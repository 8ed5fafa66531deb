#pragma once

#include <QMainWindow>

class QAction;
class QLabel;
class QMenu;
class QStackedWidget;

namespace memscope {

class TimelinePage;

// The application's top-level window: menus, the status bar, and in the middle either a
// placeholder saying no run is open or the timeline of the open run. More views (operator table,
// charts) arrive as docks and tabs.
class MainWindow : public QMainWindow {
    Q_OBJECT

  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // The text of the About box, separate from the modal dialog so that it can be tested.
    static QString aboutText();

    // Loads a .memscope run and shows its timeline. On failure shows a message box naming the
    // file, keeps whatever was open, and returns false.
    bool openRun(const QString& path);
    QString currentRunPath() const { return m_run_path; }
    TimelinePage* timelinePage() const { return m_timeline_page; }

  public slots:
    void showAbout();
    // File > Open: asks for a run file, then openRun().
    void openRunDialog();

  protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

  private:
    void createActions();
    void createMenus();
    void createCentralWidget();
    void createStatusBar();
    // Sets every user-visible text; runs again on QEvent::LanguageChange.
    void retranslateUi();
    void restoreWindowState();
    void saveWindowState() const;

    void updateStatus();

    QMenu* m_file_menu = nullptr;
    QMenu* m_help_menu = nullptr;
    QAction* m_open_action = nullptr;
    QAction* m_quit_action = nullptr;
    QAction* m_about_action = nullptr;
    QAction* m_about_qt_action = nullptr;
    QLabel* m_placeholder_title = nullptr;
    QLabel* m_placeholder_detail = nullptr;
    QLabel* m_status_label = nullptr;
    QStackedWidget* m_stack = nullptr;
    TimelinePage* m_timeline_page = nullptr;
    QString m_run_path;
};

}  // namespace memscope
