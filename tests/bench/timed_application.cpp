#include "timed_application.h"

#include "event_loop_heartbeat.h"

#include <QEvent>
#include <QEventLoop>
#include <QMetaEnum>
#include <QTimer>

#include <algorithm>
#include <cstdio>

namespace {

// "UpdateRequest (77)": QEvent::Type's name where it has one.
QString eventName(int type) {
    const char* name = QMetaEnum::fromType<QEvent::Type>().valueToKey(type);
    return name ? QStringLiteral("%1 (%2)").arg(QString::fromLatin1(name)).arg(type)
                : QStringLiteral("event %1").arg(type);
}

}  // namespace

bool TimedApplication::notify(QObject* receiver, QEvent* event) {
    if (m_depth > 0) {
        return QApplication::notify(receiver, event);
    }
    if (!m_since.isValid()) {
        m_since.start();
    }
    ++m_depth;
    QElapsedTimer wall;
    wall.start();
    const double cpu = EventLoopHeartbeat::threadCpuMs();
    const int type = int(event->type());
    // (The receiver may be gone when notify returns.)
    const char* const class_name = receiver->metaObject()->className();
    const bool result = QApplication::notify(receiver, event);
    const double wall_ms = double(wall.nsecsElapsed()) / 1e6;
    m_longestMs = std::max(m_longestMs, wall_ms);
    if (wall_ms > 20) {
        slow.push_back(
            {wall_ms, EventLoopHeartbeat::threadCpuMs() - cpu, double(m_since.nsecsElapsed()) / 1e6,
             QStringLiteral("%1 %2").arg(QString::fromLatin1(class_name), eventName(type))});
    }
    --m_depth;
    return result;
}

double TimedApplication::settle(int ms) {
    m_longestMs = 0;
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
    slow.clear();
    return m_longestMs;
}

void TimedApplication::printSlowest(size_t count) const {
    std::vector<Slow> sorted = slow;
    std::sort(sorted.begin(), sorted.end(),
              [](const Slow& a, const Slow& b) { return a.wallMs > b.wallMs; });
    std::printf(
        "GUI-thread event handlers over 20 ms: %zu (slowest %zu: wall ms / thread CPU ms / ended "
        "at s)\n",
        sorted.size(), std::min(count, sorted.size()));
    for (size_t i = 0; i < std::min(count, sorted.size()); ++i) {
        std::printf("  %8.2f %8.2f %8.2f  %s\n", sorted[i].wallMs, sorted[i].cpuMs,
                    sorted[i].endedMs / 1e3, qPrintable(sorted[i].what));
    }
}
