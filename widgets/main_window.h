#pragma once

#include <QMainWindow>

class QAction;
class QLabel;
class QMenu;

namespace memscope {

// The application's top-level window. For now it owns the menus, the status bar and a placeholder
// that says no run is open; views (timeline, operator table, charts) arrive as docks and tabs.
class MainWindow : public QMainWindow {
    Q_OBJECT

  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // The text of the About box, separate from the modal dialog so that it can be tested.
    static QString aboutText();

  public slots:
    void showAbout();

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

    QMenu* m_file_menu = nullptr;
    QMenu* m_help_menu = nullptr;
    QAction* m_quit_action = nullptr;
    QAction* m_about_action = nullptr;
    QAction* m_about_qt_action = nullptr;
    QLabel* m_placeholder_title = nullptr;
    QLabel* m_placeholder_detail = nullptr;
    QLabel* m_status_label = nullptr;
};

}  // namespace memscope
