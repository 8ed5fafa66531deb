// LiveSession, the GUI's recorded run, without the GUI: the trainer records on its own thread
// while this one takes snapshots, and a cancel from this thread stops it. The tsan preset runs
// this suite: the recorder's hand-over of events between the threads is what it checks.

#include "capture/live_session.h"
#include "tiny_options.h"
#include "trace/trace.h"

#include <QtTest/QtTest>

#include <atomic>
#include <chrono>
#include <thread>

using namespace memscope;

class TestLiveSession : public QObject {
    Q_OBJECT

  private slots:
    // Snapshots taken while the run goes only grow, and the finished trace holds them all.
    void snapshotsGrowWhileTheRunRecords() {
        TrainOptions o = tinyTrainOptions();
        o.num_steps = 6;
        LiveSession session(o, {});
        std::atomic<int> steps{0};
        session.setStepCallback([&steps](const StepMetrics&) { ++steps; });
        session.start();
        size_t last = 0;
        int snapshots = 0;
        while (session.running()) {
            const auto trace = session.snapshot();
            QVERIFY(trace->events.checkLengths().empty());
            QVERIFY(trace->events.count() >= last);
            last = trace->events.count();
            ++snapshots;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        const LiveSession::Result result = session.finish();
        QVERIFY2(result.error.empty(), result.error.c_str());
        QVERIFY(!result.cancelled);
        QCOMPARE(steps.load(), 6);
        QVERIFY(snapshots > 0);
        QVERIFY(result.trace->events.count() >= last);
        QVERIFY(result.trace->events.count() > 0);
        QVERIFY(result.peak_bytes > 0);
    }

    // A cancel from another thread ends the run early and keeps what it recorded.
    void cancelFromAnotherThreadKeepsTheEvents() {
        TrainOptions o = tinyTrainOptions();
        o.num_steps = 1000;
        LiveSession session(o, {});
        std::atomic<int> steps{0};
        session.setStepCallback([&steps](const StepMetrics&) { ++steps; });
        session.start();
        while (steps.load() < 2 && session.running()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        std::thread canceller([&session] { session.cancel(); });
        canceller.join();
        const LiveSession::Result result = session.finish();
        QVERIFY(result.cancelled);
        QVERIFY(steps.load() < 1000);
        QVERIFY(result.trace->events.count() > 0);
    }

    // Destroying a session whose run is still going cancels and joins it.
    void destroyingARunningSessionJoinsIt() {
        TrainOptions o = tinyTrainOptions();
        o.num_steps = 1000;
        std::atomic<int> steps{0};
        {
            LiveSession session(o, {});
            session.setStepCallback([&steps](const StepMetrics&) { ++steps; });
            session.start();
            while (steps.load() < 1 && session.running()) {
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
            }
        }
        const int after = steps.load();
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        QCOMPARE(steps.load(), after);  // nothing runs on after the destructor
        QVERIFY(after < 1000);
    }
};

QTEST_GUILESS_MAIN(TestLiveSession)
#include "test_live_session.moc"
