#include "shell/tab_trace_follower.h"

#include "run_document.h"

#include <QEvent>
#include <QWidget>

namespace memscope {

TabTraceFollower::TabTraceFollower(RunDocument* document, QWidget* tab, Fill fill)
    : QObject(tab), m_document(document), m_tab(tab), m_fill(std::move(fill)) {
    m_tab->installEventFilter(this);
    connect(m_document, &RunDocument::traceChanged, this, &TabTraceFollower::sync);
}

void TabTraceFollower::sync() {
    const std::shared_ptr<const Trace> trace = m_document->trace();
    // isVisibleTo(window): the tab shown, also in a window not shown yet (tests, --screenshot).
    if (!m_tab->isVisibleTo(m_tab->window())) {
        // A hidden page lets go of a run the document no longer shows (and of all it derived
        // from it) at once, not when it is next shown.
        if (m_filled && m_given.lock() != trace) {
            m_filled = false;
            m_given.reset();
            m_fill(nullptr);
        }
        return;
    }
    if (m_filled && m_given.lock() == trace) {
        return;
    }
    m_given = trace;
    m_filled = true;
    m_fill(trace);
}

bool TabTraceFollower::eventFilter(QObject* watched, QEvent* event) {
    // ShowToParent: the tab widget showed the tab (sent also while the window is hidden).
    if (watched == m_tab &&
        (event->type() == QEvent::ShowToParent || event->type() == QEvent::Show)) {
        sync();
    }
    return QObject::eventFilter(watched, event);
}

}  // namespace memscope
