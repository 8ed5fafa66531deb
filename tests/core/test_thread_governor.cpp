// ThreadGovernor: the training threads follow the cores other processes leave free.

#include "train/thread_governor.h"

#include <QtTest>

using namespace memscope;

namespace {

// A sample `ticks` clock ticks per core after `from`, in which the machine was busy on
// `busy_cores` cores, `self_cores` of them this process's.
ThreadGovernor::CpuSample after(const ThreadGovernor::CpuSample& from, int cores, int64_t ticks,
                                double busy_cores, double self_cores) {
    ThreadGovernor::CpuSample s = from;
    s.valid = true;
    s.machine_total += ticks * cores;
    s.machine_busy += static_cast<int64_t>(busy_cores * ticks);
    s.self += static_cast<int64_t>(self_cores * ticks);
    return s;
}

ThreadGovernor::CpuSample start() {
    ThreadGovernor::CpuSample s;
    s.valid = true;
    s.machine_total = 1000000;
    s.machine_busy = 400000;
    s.self = 5000;
    return s;
}

}  // namespace

class TestThreadGovernor : public QObject {
    Q_OBJECT

  private slots:
    void othersAreTheMachineMinusThisProcess() {
        const auto a = start();
        // 2 cores, 100 ticks: both busy, this process used one of them.
        const auto b = after(a, 2, 100, 2.0, 1.0);
        QCOMPARE(ThreadGovernor::othersBusyCores(a, b, 2), 1.0);
        // Quiet machine: all busy time is this process's.
        const auto c = after(b, 2, 100, 1.9, 1.9);
        QCOMPARE(ThreadGovernor::othersBusyCores(b, c, 2), 0.0);
        // An empty or invalid interval says nothing.
        QCOMPARE(ThreadGovernor::othersBusyCores(c, c, 2), 0.0);
        ThreadGovernor::CpuSample invalid;
        QCOMPARE(ThreadGovernor::othersBusyCores(invalid, c, 2), 0.0);
    }

    void threadsLeaveTheOthersTheirCores() {
        QCOMPARE(ThreadGovernor::threadsFor(0.0, 2, 2), 2);
        QCOMPARE(ThreadGovernor::threadsFor(0.3, 2, 2), 2);
        QCOMPARE(ThreadGovernor::threadsFor(0.98, 2, 2), 1);
        QCOMPARE(ThreadGovernor::threadsFor(2.0, 2, 2), 1);   // never below one
        QCOMPARE(ThreadGovernor::threadsFor(1.0, 16, 8), 8);  // never above the maximum
        QCOMPARE(ThreadGovernor::threadsFor(10.2, 16, 16), 6);
    }

    void aBusyCoreIsGivenBackAndTakenAgainWhenFree() {
        ThreadGovernor governor(2, 2);
        auto s = start();
        QCOMPARE(governor.update(s), 2);  // the first sample only starts the clock
        s = after(s, 2, 30, 2.0, 1.0);    // another process took a core
        QCOMPARE(governor.update(s), 1);
        QCOMPARE(governor.fewestThreads(), 1);
        s = after(s, 2, 30, 2.0, 1.0);  // with one thread: still taken
        QCOMPARE(governor.update(s), 1);
        s = after(s, 2, 30, 1.0, 1.0);  // it stopped
        QCOMPARE(governor.update(s), 2);
        QCOMPARE(governor.fewestThreads(), 1);
        QVERIFY(governor.othersBusyCores() < 0.01);
    }

    void shortIntervalsAndBadSamplesDecideNothing() {
        ThreadGovernor governor(2, 2);
        auto s = start();
        governor.update(s);
        // Under min_interval_ticks per core: /proc's 10 ms ticks would decide on their own.
        const auto short_one = after(s, 2, ThreadGovernor::min_interval_ticks - 1, 2.0, 1.0);
        QCOMPARE(governor.update(short_one), 2);
        QCOMPARE(governor.update(ThreadGovernor::CpuSample{}), 2);
        // The interval keeps growing from the last decision: now it is long enough.
        const auto long_one = after(short_one, 2, 5, 2.0, 1.0);
        QCOMPARE(governor.update(long_one), 1);
    }

    void theRealCountersReadAndAdvance() {
        const auto a = ThreadGovernor::readCpuSample();
        QVERIFY(a.valid);  // Linux CI machines have /proc
        QVERIFY(a.machine_total >= a.machine_busy);
        QVERIFY(a.self >= 0);
        volatile double sink = 0;
        for (int i = 0; i < 20000000; ++i) {
            sink = sink + i * 0.5;
        }
        const auto b = ThreadGovernor::readCpuSample();
        QVERIFY(b.machine_total >= a.machine_total);
        QVERIFY(b.self >= a.self);
    }
};

QTEST_GUILESS_MAIN(TestThreadGovernor)
#include "test_thread_governor.moc"
