#pragma once

#include <QObject>

class QAction;
class QMenu;

namespace memscope {

class MainWindow;
class RecentFilesMenu;
class RunDocument;
class RunSession;

// The main window's menu bar and its actions (issue 54): File (open, open part, recent files,
// save, compare with a run or with another rank, export, quit), Run (run, stop), View (find,
// annotations, clear the range filter, the docks) and Help (about), with their shortcuts and
// object names, wired to the window's slots. The window does what an action asks; this class
// says what the actions are, their texts and when each is enabled.
class MainWindowActions : public QObject {
    Q_OBJECT

  public:
    // Fills `window`'s menu bar. The actions are the window's children, so that findChild finds
    // them by object name; Clear Range Filter clears `document`'s filter, and Compare With Rank
    // lists `session`'s ranks.
    MainWindowActions(MainWindow* window, RunDocument* document, RunSession* session);

    QAction* findAction() const { return m_find; }
    QAction* findNextAction() const { return m_find_next; }
    QAction* findPreviousAction() const { return m_find_previous; }
    QAction* annotationsAction() const { return m_annotations; }
    RecentFilesMenu* recentMenu() const { return m_recent_menu; }
    // The View menu, for the docks' show and hide entries at its end.
    QMenu* viewMenu() const { return m_view_menu; }

    // Enables each action for what the window does: a run being recorded (`recording`), a run
    // being opened (`loading`), a run open (`has_run`).
    void update(bool recording, bool loading, bool has_run);
    // File > Compare With Rank: the session's other ranks that have a recording; hidden for a
    // single process.
    void updateRankMenu();
    // Sets every text; the window calls it again on QEvent::LanguageChange.
    void retranslate();

  private:
    void createActions(RunDocument* document);
    void createMenus();

    MainWindow* m_window = nullptr;
    RunSession* m_session = nullptr;
    QMenu* m_file_menu = nullptr;
    RecentFilesMenu* m_recent_menu = nullptr;
    QMenu* m_compare_rank_menu = nullptr;
    QMenu* m_run_menu = nullptr;
    QMenu* m_view_menu = nullptr;
    QMenu* m_help_menu = nullptr;
    QAction* m_open = nullptr;
    QAction* m_open_range = nullptr;
    QAction* m_save = nullptr;
    QAction* m_export = nullptr;
    QAction* m_compare = nullptr;
    QAction* m_quit = nullptr;
    QAction* m_run = nullptr;
    QAction* m_stop = nullptr;
    QAction* m_find = nullptr;
    QAction* m_find_next = nullptr;
    QAction* m_find_previous = nullptr;
    QAction* m_annotations = nullptr;
    QAction* m_clear_filter = nullptr;
    QAction* m_about = nullptr;
    QAction* m_about_qt = nullptr;
};

}  // namespace memscope
