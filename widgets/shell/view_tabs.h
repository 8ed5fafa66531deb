#pragma once

#include <QStringList>
#include <QTabWidget>

namespace memscope {

// The main window's tabs (issue 30): the timeline first, then each view in a scroll area named
// after it ("operators", "summary", ...: the names --screenshot takes), so that a page with many
// controls scrolls below its own minimum size rather than forcing the window wider or taller than
// a laptop screen. The pages that need a run show while one is open.
class ViewTabs : public QTabWidget {
    Q_OBJECT

  public:
    explicit ViewTabs(QWidget* parent = nullptr);

    // The first tab, named "timeline", without a scroll area (the timeline sizes itself).
    void addTimeline(QWidget* timeline);
    // Adds `page` in a scroll area named `name`, the tab shown when `visible`; returns the area,
    // the widget the tab shows and hides. A page that `needs_run` follows setRunPagesVisible().
    QWidget* addPage(QWidget* page, const QString& name, bool needs_run, bool visible);
    // The tab showing `page` (pages sit in scroll areas; -1 for none), and the page of a tab.
    int indexOfPage(QWidget* page) const;
    QWidget* pageAt(int index) const;
    // Shows or hides every tab whose page needs a run; the timeline's tab always shows (its
    // placeholder says how to get a run).
    void setRunPagesVisible(bool visible);
    // The views by name, "timeline" first; with `all`, also those whose tab is hidden.
    QStringList viewNames(bool all = false) const;
    // Shows the named view's tab; false when there is none or its tab is hidden.
    bool selectView(const QString& name);

  private:
    QString nameAt(int index) const;

    QWidget* m_timeline = nullptr;
};

}  // namespace memscope
