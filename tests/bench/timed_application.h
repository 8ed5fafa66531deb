#pragma once

#include <QApplication>
#include <QElapsedTimer>
#include <QString>

#include <vector>

// The GUI benchmarks' application: times every event the GUI thread handles (outermost only), in
// wall and in thread CPU time, and keeps the handlers over 20 ms with when they ended, so that a
// long stall can be traced to its handler, and told apart from the thread waiting for a core.
class TimedApplication : public QApplication {
  public:
    using QApplication::QApplication;
    struct Slow {
        double wallMs, cpuMs;
        double endedMs;  // since restartClock() (or the first event)
        QString what;    // receiver class and event type
    };
    std::vector<Slow> slow;  // handlers over 20 ms, in order

    bool notify(QObject* receiver, QEvent* event) override;
    // Times the handlers' ends from now (e.g. when the benchmark's heartbeat starts).
    void restartClock() { m_since.start(); }
    // Runs the event loop for `ms` (e.g. the window's first expose and paint, before a user could
    // press Start) and forgets its handlers; returns the slowest one's wall time (any handler).
    double settle(int ms);
    // Prints the `count` slowest handlers (wall and CPU ms, when they ended).
    void printSlowest(size_t count) const;

  private:
    int m_depth = 0;
    double m_longestMs = 0;  // the slowest handler since settle() began
    QElapsedTimer m_since;
};
