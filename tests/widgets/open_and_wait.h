#pragma once

// Opening runs in the window's tests: MainWindow::openRun and compareWith read a big run on a
// worker thread and return while it loads (RunSession); these wait for the end of the load.

#include "run_session.h"
#include "shell/main_window.h"

#include <QSignalSpy>

namespace memscope_test {

// Waits for a load `started` by the window to end: whether it opened its run.
inline bool waitForLoad(memscope::MainWindow& window, bool started) {
    if (!started) {
        return false;
    }
    if (!window.session()->isLoading()) {
        return true;  // read here and now
    }
    QSignalSpy finished(window.session(), &memscope::RunSession::loadFinished);
    if (!finished.wait(120000)) {
        return false;
    }
    return finished.first().first().toBool();
}

inline bool openAndWait(memscope::MainWindow& window, const QString& path,
                        const memscope::RunRange& range = memscope::RunRange()) {
    return waitForLoad(window, window.openRun(path, range));
}

inline bool compareAndWait(memscope::MainWindow& window, const QString& path) {
    return waitForLoad(window, window.compareWith(path));
}

}  // namespace memscope_test
