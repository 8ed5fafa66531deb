#pragma once

#include <QObject>

#include <functional>
#include <memory>

class QWidget;

namespace memscope {

class RunDocument;
class Trace;

// Gives a tab's page the document's run when the tab is shown (issue 30): a page reads the run
// when its tab shows rather than whenever the run changes, so that a run that finishes does not
// fill every page at once (the allocation lists sort every allocation). `tab` is the widget the
// tab widget shows and hides (the page's scroll area); `fill` gets the document's trace once
// per trace, at once when the tab is the one shown, else when it is next shown. A hidden page
// gets nullptr when the document's run changes, so that it lets go of the run it showed: pages
// do not keep a run alive (they hold it weakly); the document and the views that draw do.
class TabTraceFollower : public QObject {
    Q_OBJECT

  public:
    using Fill = std::function<void(const std::shared_ptr<const Trace>&)>;

    TabTraceFollower(RunDocument* document, QWidget* tab, Fill fill);

    // Fills the page now if its tab is shown and it does not have the document's trace yet.
    void sync();

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    RunDocument* m_document = nullptr;
    QWidget* m_tab = nullptr;
    Fill m_fill;
    std::weak_ptr<const Trace> m_given;  // the trace the page has
    bool m_filled = false;               // the page was given m_given (and not cleared since)
};

}  // namespace memscope
