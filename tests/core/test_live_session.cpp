// LiveSession, the GUI's recorded run, without the GUI: the trainer records on its own thread
// while this one takes snapshots, and a cancel from this thread stops it. The tsan preset runs
// this suite: the recorder's hand-over of events between the threads is what it checks.

#include "capture/live_session.h"
#include "layout/timeline_layout.h"
#include "tiny_options.h"
#include "trace/trace.h"

#include <QtTest/QtTest>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

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

    // The incremental snapshots (liveSnapshot) are consistent prefixes of the run: each one's
    // events are the first events of the finished trace, finalized and laid out as that prefix
    // finalized and laid out at once would be, and a snapshot still held is never written again.
    void liveSnapshotsAreConsistentPrefixes() {
        TrainOptions o = tinyTrainOptions();
        o.num_steps = 5;
        LiveSession session(o, {});
        session.start();
        std::vector<LiveSession::LiveSnapshot> kept;  // every third one stays held
        size_t last = 0;
        int taken = 0;
        // At least three, so that one is kept however fast the run ends (under AddressSanitizer,
        // with other suites beside it, the 5 tiny steps could end before the third).
        while (session.running() || taken < 3) {
            LiveSession::LiveSnapshot s = session.liveSnapshot();
            QVERIFY(s.trace && s.layout);
            QVERIFY(s.trace->events.count() >= last);
            QCOMPARE(s.layout->eventCount(), int64_t(s.trace->events.count()));
            last = s.trace->events.count();
            if (++taken % 3 == 0) {
                kept.push_back(std::move(s));
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(3));
        }
        const LiveSession::Result result = session.finish();
        QVERIFY2(result.error.empty(), result.error.c_str());
        const Trace& final_trace = *result.trace;
        QVERIFY(!kept.empty());
        for (const auto& s : kept) {
            const Trace& snapshot = *s.trace;
            const size_t n = snapshot.events.count();
            QVERIFY(n <= final_trace.events.count());
            Trace prefix;
            for (size_t i = 0; i < n; ++i) {
                const Event a = snapshot.events.at(i);
                const Event b = final_trace.events.at(i);
                QCOMPARE(a.time_ns, b.time_ns);
                QCOMPARE(a.addr, b.addr);
                QCOMPARE(a.size, b.size);
                QCOMPARE(int(a.kind), int(b.kind));
                prefix.events.append(b);
            }
            prefix.finalize();
            QCOMPARE(snapshot.allocations().size(), prefix.allocations().size());
            for (size_t a = 0; a < prefix.allocations().size(); ++a) {
                QCOMPARE(snapshot.allocations()[a].free_event, prefix.allocations()[a].free_event);
                QCOMPARE(int(snapshot.allocations()[a].category),
                         int(prefix.allocations()[a].category));
            }
            const TimelineLayout at_once(prefix);
            QCOMPARE(s.layout->xCount(), at_once.xCount());
            QCOMPARE(s.layout->total(), at_once.total());
            QCOMPARE(s.layout->drawnTop(), at_once.drawnTop());
            QCOMPARE(s.layout->pointCount(), at_once.pointCount());
        }
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
