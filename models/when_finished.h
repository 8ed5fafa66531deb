#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>

#include <utility>

namespace memscope {

// Calls `handler(result)` in `context`'s thread once `future` has its result, through a
// QFutureWatcher that `context` owns: never after `context` is destroyed, and not at all when
// the future ends cancelled or with an exception (as QFuture::then skips its continuation).
// Used instead of QFuture::then(context, ...), whose continuation Debian's Qt 6.4.2 sometimes
// never ran (docs/DESIGN.md). A caller that may start a newer job before an older one finishes
// drops the stale result itself (a generation captured by the handler).
template <typename T, typename Handler>
void whenFinished(QObject* context, QFuture<T> future, Handler handler) {
    auto* watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context,
                     [watcher, handler = std::move(handler)] {
                         watcher->deleteLater();
                         if (watcher->isCanceled() || watcher->future().resultCount() < 1) {
                             return;
                         }
                         handler(watcher->result());
                     });
    watcher->setFuture(std::move(future));
}

}  // namespace memscope
