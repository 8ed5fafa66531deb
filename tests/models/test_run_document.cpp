// RunDocument (issue 11): one signal per real change, a new run resets what belonged to the old
// one while a live continuation keeps it, and the derived indexes are built once per trace.

#include "run_document.h"

#include "analysis/operator_table.h"
#include "explain/trace_summary.h"
#include "layout/timeline_layout.h"
#include "run_indexes.h"
#include "when_finished.h"

#include <QPromise>
#include <QSignalSpy>
#include <QThread>
#include <QThreadPool>
#include <QtTest>

#include "../core/analysis_fixtures.h"

#include <thread>

using namespace memscope;

namespace {

std::shared_ptr<const Trace> fixtureTrace() {
    AnalysisFixture f;
    return std::make_shared<const Trace>(f.trace);
}

}  // namespace

class TestRunDocument : public QObject {
    Q_OBJECT

  private slots:
    // Every setter emits its signal once for a change and not at all for the same value again.
    void settersEmitOncePerChange() {
        RunDocument doc;
        doc.setTrace(fixtureTrace());
        QSignalSpy window(&doc, &RunDocument::visibleRangeChanged);
        QSignalSpy axis(&doc, &RunDocument::timeAxisChanged);
        QSignalSpy detail(&doc, &RunDocument::detailChanged);
        QSignalSpy selected(&doc, &RunDocument::selectedAllocationChanged);
        QSignalSpy hovered(&doc, &RunDocument::hoveredAllocationChanged);
        QSignalSpy highlighted(&doc, &RunDocument::highlightedAllocationsChanged);
        QSignalSpy rank(&doc, &RunDocument::rankChanged);
        QSignalSpy filter(&doc, &RunDocument::filterChanged);
        for (int twice = 0; twice < 2; ++twice) {
            doc.setVisibleRange(1, 4);
            doc.setTimeAxis(true);
            doc.setDetail(3);
            doc.setSelectedAllocation(2);
            doc.setHoveredAllocation(1);
            doc.setHighlightedAllocations({0, 3});
            doc.setRank(1);
            doc.setFilter(RangeFilter(1, 4));
        }
        for (QSignalSpy* spy :
             {&window, &axis, &detail, &selected, &hovered, &highlighted, &rank, &filter}) {
            QCOMPARE(spy->count(), 1);
        }
        QCOMPARE(window.first().at(0).toDouble(), 1.0);
        QCOMPARE(axis.first().at(0).toBool(), true);
        QCOMPARE(detail.first().at(0).toLongLong(), 3);
        QCOMPARE(hovered.first().at(0).toLongLong(), 1);
        QCOMPARE(rank.first().at(0).toInt(), 1);
        QCOMPARE(doc.rank(), 1);
        QCOMPARE(doc.detail(), 3);
        QVERIFY(doc.timeAxis());
    }

    // A different run clears selection, hover, highlights and filter (one signal each); the
    // window, x axis, detail and rank stay the views'.
    void newTraceResetsSelectionAndFilter() {
        RunDocument doc;
        doc.setTrace(fixtureTrace());
        doc.setSelectedAllocation(2);
        doc.setHoveredAllocation(1);
        doc.setHighlightedAllocations({0});
        doc.setFilter(RangeFilter(1, 4));
        doc.setTimeAxis(true);
        doc.setRank(2);
        QSignalSpy trace(&doc, &RunDocument::traceChanged);
        QSignalSpy selected(&doc, &RunDocument::selectedAllocationChanged);
        QSignalSpy hovered(&doc, &RunDocument::hoveredAllocationChanged);
        QSignalSpy filter(&doc, &RunDocument::filterChanged);
        QSignalSpy rank(&doc, &RunDocument::rankChanged);
        doc.setTrace(fixtureTrace());
        QCOMPARE(trace.count(), 1);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(hovered.count(), 1);
        QCOMPARE(filter.count(), 1);
        QCOMPARE(rank.count(), 0);
        QCOMPARE(doc.selectedAllocation(), -1);
        QCOMPARE(doc.hoveredAllocation(), -1);
        QVERIFY(doc.highlightedAllocations().isEmpty());
        QVERIFY(!doc.hasFilter());
        QVERIFY(doc.timeAxis());
        QCOMPARE(doc.rank(), 2);
    }

    // A newer snapshot of the same run keeps them, and its layout comes with it.
    void continuationKeepsSelectionAndFilter() {
        RunDocument doc;
        doc.setTrace(fixtureTrace());
        doc.setSelectedAllocation(2);
        doc.setHoveredAllocation(1);
        doc.setHighlightedAllocations({0});
        doc.setFilter(RangeFilter(1, 4));
        QSignalSpy trace(&doc, &RunDocument::traceChanged);
        QSignalSpy layout(&doc, &RunDocument::layoutChanged);
        QSignalSpy selected(&doc, &RunDocument::selectedAllocationChanged);
        QSignalSpy filter(&doc, &RunDocument::filterChanged);
        const auto next = fixtureTrace();
        const auto next_layout = std::make_shared<TimelineLayout>(*next);
        doc.setTrace(next, true, next_layout);
        QCOMPARE(trace.count(), 1);
        QCOMPARE(layout.count(), 1);
        QCOMPARE(selected.count(), 0);
        QCOMPARE(filter.count(), 0);
        QCOMPARE(doc.layout(), next_layout);
        QCOMPARE(doc.selectedAllocation(), 2);
        QCOMPARE(doc.hoveredAllocation(), 1);
        QCOMPARE(doc.highlightedAllocations(), QVector<qint64>({0}));
        QVERIFY(doc.hasFilter());
        // The same trace again changes nothing.
        doc.setTrace(next, true, next_layout);
        QCOMPARE(trace.count(), 1);
        QCOMPARE(layout.count(), 1);
    }

    // The layout arrives later for a large run: one layoutChanged, and a new trace drops it.
    void layoutFollowsItsTrace() {
        RunDocument doc;
        const auto trace = fixtureTrace();
        QSignalSpy layout(&doc, &RunDocument::layoutChanged);
        doc.setTrace(trace);
        QCOMPARE(layout.count(), 0);
        QVERIFY(!doc.layout());
        const auto laid = std::make_shared<TimelineLayout>(*trace);
        doc.setLayout(laid);
        doc.setLayout(laid);
        QCOMPARE(layout.count(), 1);
        doc.setTrace(fixtureTrace());
        QCOMPARE(layout.count(), 2);
        QVERIFY(!doc.layout());
    }

    // The document lays its run out on request (issue 54: the timeline only draws): a small run
    // here and now, once; a large one on a worker thread, set with one layoutChanged, and dropped
    // when another run came while it was computing.
    void requestLayoutLaysTheRunOut() {
        RunDocument doc;
        QVERIFY(!doc.requestLayout());  // no run
        doc.setTrace(fixtureTrace());
        QSignalSpy layout(&doc, &RunDocument::layoutChanged);
        QVERIFY(doc.requestLayout());
        QVERIFY(doc.layout());
        QCOMPARE(doc.layout()->allocationCount(), int64_t(doc.trace()->allocations().size()));
        const auto first = doc.layout();
        QVERIFY(doc.requestLayout());
        QCOMPARE(doc.layout(), first);
        QCOMPARE(layout.count(), 1);

        auto large = std::make_shared<Trace>();
        const int64_t pairs = RunDocument::kSyncLayoutEvents / 2 + 1000;
        int64_t live = 0;
        for (int64_t i = 0; i < pairs; ++i) {
            for (const bool free : {false, true}) {
                Event e;
                e.time_ns = i * 2 + free;
                e.kind = free ? EventKind::Free : EventKind::Alloc;
                e.addr = uint64_t(0x1000 + i);
                e.size = free ? -64 : 64;
                live += e.size;
                e.allocated = live;
                large->events.append(e);
            }
        }
        large->finalize();
        doc.setTrace(large);
        layout.clear();
        QVERIFY(!doc.requestLayout());
        QVERIFY(doc.layingOut());
        QVERIFY(!doc.requestLayout());  // the one computing is enough
        QTRY_VERIFY_WITH_TIMEOUT(doc.layout() != nullptr, 60000);
        QVERIFY(!doc.layingOut());
        QCOMPARE(layout.count(), 1);
        QCOMPARE(doc.layout()->allocationCount(), pairs);

        // A newer run wins over a layout still computing for an older one.
        doc.setTrace(fixtureTrace());
        doc.setTrace(large);
        QVERIFY(!doc.requestLayout());
        const auto small = fixtureTrace();
        doc.setTrace(small);
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::processEvents();
        QVERIFY(!doc.layout());
        QVERIFY(!doc.layingOut());
    }

    // Indexes are built on first use, once per trace, and shared by every caller.
    void indexesAreBuiltOncePerTrace() {
        RunDocument doc;
        QVERIFY(!doc.indexes());
        QCOMPARE(doc.indexBuilds(), 0);
        doc.setTrace(fixtureTrace());
        QCOMPARE(doc.indexBuilds(), 0);  // nobody asked yet
        const auto first = doc.indexes();
        QVERIFY(first);
        QCOMPARE(doc.indexes(), first);
        QCOMPARE(doc.indexBuilds(), 1);
        doc.setSelectedAllocation(1);  // view state does not touch them
        doc.setFilter(RangeFilter(0, 3));
        QCOMPARE(doc.indexes(), first);
        QCOMPARE(doc.indexBuilds(), 1);
        doc.setTrace(fixtureTrace(), true);  // a newer snapshot has new stacks: built again
        QVERIFY(doc.indexes() != first);
        QCOMPARE(doc.indexBuilds(), 2);
        QCOMPARE(&doc.indexes()->trace(), doc.trace().get());
    }

    // Module and operator per allocation as TraceSummary names them; OOM events in order.
    void indexesNameModuleOperatorAndOoms() {
        AnalysisFixture f;
        Trace trace = f.trace;
        Event oom;
        oom.kind = EventKind::Oom;
        oom.time_ns = 700;
        oom.size = 1 << 20;
        oom.allocated = trace.events.allocated.back();
        oom.phase = Phase::Backward;
        oom.step = 1;
        trace.events.append(oom);
        trace.finalize();
        const RunIndexes indexes(std::make_shared<const Trace>(trace));
        const int64_t a0 = f.allocation(0xa0);
        const int64_t a2 = f.allocation(0xa2);
        const int64_t a3 = f.allocation(0xa3);
        QCOMPARE(QString::fromStdString(indexes.moduleOfAllocation(a0)), QStringLiteral("M"));
        QCOMPARE(QString::fromStdString(indexes.operatorOfAllocation(a0)),
                 QStringLiteral("aten::addmm"));
        QCOMPARE(QString::fromStdString(indexes.moduleOfAllocation(a3)),
                 QStringLiteral("backward of M"));
        QCOMPARE(QString::fromStdString(indexes.operatorOfAllocation(a3)),
                 QStringLiteral("aten::mm"));
        QVERIFY(indexes.moduleOfAllocation(a2).empty());
        QCOMPARE(indexes.oomEvents(), std::vector<int64_t>({int64_t(trace.events.count()) - 1}));
        for (size_t a = 0; a < trace.allocations().size(); ++a) {
            const uint32_t stack = indexes.stackOfAllocation(int64_t(a));
            QCOMPARE(indexes.moduleOfAllocation(int64_t(a)),
                     TraceSummary::moduleOf(trace.stacks, stack));
            QCOMPARE(indexes.operatorOfAllocation(int64_t(a)),
                     TraceSummary::operatorOf(trace.stacks, stack));
        }
    }
    // whenFinished hands a worker's result to the context's thread, also when the future is
    // already finished as it is attached, and never after the context is destroyed or for a
    // cancelled future.
    void whenFinishedDeliversOnTheContextsThread() {
        QObject context;
        int got = 0;
        QThread* thread = nullptr;
        QPromise<int> promise;
        promise.start();
        whenFinished(&context, promise.future(), [&](int value) {
            got = value;
            thread = QThread::currentThread();
        });
        std::thread worker([&promise] {
            promise.addResult(7);
            promise.finish();
        });
        worker.join();
        QCOMPARE(got, 0);  // not called from the worker
        QTRY_COMPARE(got, 7);
        QCOMPARE(thread, QThread::currentThread());
        QTRY_VERIFY(context.children().isEmpty());  // the watcher is gone

        QPromise<int> done;  // finished before it is attached
        done.start();
        done.addResult(3);
        done.finish();
        whenFinished(&context, done.future(), [&](int value) { got = value; });
        QTRY_COMPARE(got, 3);
    }

    void whenFinishedSkipsDestroyedContextAndCancelled() {
        int calls = 0;
        QPromise<int> promise;
        promise.start();
        {
            QObject context;
            whenFinished(&context, promise.future(), [&](int) { ++calls; });
        }
        promise.addResult(1);
        promise.finish();
        QObject context;
        QPromise<int> cancelled;
        cancelled.start();
        cancelled.future().cancel();
        cancelled.finish();
        whenFinished(&context, cancelled.future(), [&](int) { ++calls; });
        // A sentinel that does finish, attached last: once it ran, the others had their turn.
        bool sentinel = false;
        QPromise<int> last;
        last.start();
        last.addResult(0);
        last.finish();
        whenFinished(&context, last.future(), [&](int) { sentinel = true; });
        QTRY_VERIFY(sentinel);
        QCOMPARE(calls, 0);
    }
    // The operator table is built once per trace and every caller gets the same one, whether
    // it asked on a worker or here and now; a new run builds it anew.
    void operatorTableIsBuiltOncePerTrace() {
        RunDocument doc;
        QVERIFY(!doc.operatorTable(nullptr).isValid());
        const auto trace = fixtureTrace();
        doc.setTrace(trace);
        QCOMPARE(doc.operatorTableBuilds(), 0);  // nobody asked yet
        auto async = doc.operatorTable(trace);
        auto now = doc.operatorTable(trace, true);
        QCOMPARE(doc.operatorTableBuilds(), 1);
        const std::shared_ptr<const OperatorTable> table = now.result();
        QVERIFY(table);
        QCOMPARE(async.result(), table);
        const OperatorTable fresh =
            OperatorTable::build(*trace, OperatorTable::Grouping::ByOperator);
        QCOMPARE(table->rows().size(), fresh.rows().size());
        QVERIFY(!table->rows().empty());
        doc.setFilter(RangeFilter(0, 3));  // view state does not touch it
        QCOMPARE(doc.operatorTable(trace).result(), table);
        QCOMPARE(doc.operatorTableBuilds(), 1);

        const auto next = fixtureTrace();
        doc.setTrace(next);
        const auto other = doc.operatorTable(next, true).result();
        QVERIFY(other && other != table);
        QCOMPARE(doc.operatorTableBuilds(), 2);
        QCOMPARE(doc.operatorTable(next).result(), other);
        QCOMPARE(doc.operatorTableBuilds(), 2);
    }
};

QTEST_GUILESS_MAIN(TestRunDocument)
#include "test_run_document.moc"
