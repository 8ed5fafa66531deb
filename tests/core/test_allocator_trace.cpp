// The CUDA caching allocator's trace tracker, as far as no GPU allows: the translation of its
// TraceEntry records (built here against the real headers on a CUDA build of LibTorch) into
// segment events, the once-per-process attach rule, the sink, and the recorder's segment events.

#include "capture/recorder.h"
#include "train/allocator_trace_link.h"

#include <QtTest/QtTest>

#include <vector>

using namespace memscope;
using Action = compat::AllocatorTraceEvent::Action;

namespace {

compat::AllocatorTraceEvent traceEvent(Action action, uint64_t addr, uint64_t size,
                                       int device = 0) {
    compat::AllocatorTraceEvent e;
    e.action = action;
    e.addr = addr;
    e.size = size;
    e.device = device;
    return e;
}

struct SegmentCall {
    EventKind kind;
    uint64_t addr;
    int64_t size;
    int device;
};

class SegmentCounter : public AllocationObserver {
  public:
    void onMemoryEvent(void*, int64_t, int64_t, int64_t, int64_t, c10::Device) override {}
    void onPhase(Phase, int64_t) override {}
    void onSegment(EventKind kind, uint64_t addr, int64_t size, c10::Device device) override {
        calls.push_back({kind, addr, size, device.index()});
    }
    std::vector<SegmentCall> calls;
};

}  // namespace

class TestAllocatorTrace : public QObject {
    Q_OBJECT

  private slots:
    void segmentActionsBecomeSegmentEvents_data() {
        QTest::addColumn<int>("action");
        QTest::addColumn<bool>("kept");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int64_t>("size");
        const auto alloc = int(EventKind::SegmentAlloc);
        const auto free = int(EventKind::SegmentFree);
        QTest::newRow("segment_alloc")
            << int(Action::SegmentAlloc) << true << alloc << int64_t(2 << 20);
        QTest::newRow("segment_map")
            << int(Action::SegmentMap) << true << alloc << int64_t(2 << 20);
        QTest::newRow("segment_free")
            << int(Action::SegmentFree) << true << free << -int64_t(2 << 20);
        QTest::newRow("segment_unmap")
            << int(Action::SegmentUnmap) << true << free << -int64_t(2 << 20);
        // The hook records allocations, frees and out-of-memory with their stacks already.
        QTest::newRow("alloc") << int(Action::Alloc) << false << 0 << int64_t(0);
        QTest::newRow("free_requested") << int(Action::FreeRequested) << false << 0 << int64_t(0);
        QTest::newRow("free_completed") << int(Action::FreeCompleted) << false << 0 << int64_t(0);
        QTest::newRow("snapshot") << int(Action::Snapshot) << false << 0 << int64_t(0);
        QTest::newRow("oom") << int(Action::Oom) << false << 0 << int64_t(0);
    }
    void segmentActionsBecomeSegmentEvents() {
        QFETCH(int, action);
        QFETCH(bool, kept);
        QFETCH(int, kind);
        QFETCH(int64_t, size);
        const auto change =
            segmentChangeOf(traceEvent(static_cast<Action>(action), 0x7f0000000000, 2 << 20, 1));
        QCOMPARE(change.has_value(), kept);
        if (kept) {
            QCOMPARE(int(change->kind), kind);
            QCOMPARE(change->size, size);
            QCOMPARE(change->addr, uint64_t(0x7f0000000000));
            QCOMPARE(change->device, 1);
        }
    }

    void aSizeBeyondInt64IsRefused() {
        QVERIFY(!segmentChangeOf(traceEvent(Action::SegmentAlloc, 0x1000, uint64_t(1) << 63)));
    }

    // TraceEntry records as the allocator builds them, read through the same template the
    // attached tracker uses. The condition is inside the slot: moc sees no header's macros
    // (memscope_suite_moc, tests/CMakeLists.txt).
    void realTraceEntriesTranslate() {
#if !MEMSCOPE_HAS_ALLOCATOR_TRACE
        QSKIP("no allocator TraceEntry in this LibTorch (a CUDA build of 2.2 or later has one)");
#else
        using Entry = c10::cuda::CUDACachingAllocator::TraceEntry;
        int stream_token = 0;
        const Entry reserve(Entry::SEGMENT_ALLOC, 0, 0x7f0000200000, 20 << 20, &stream_token,
                            {0, 0}, {});
        const auto e = compat::toAllocatorTraceEvent(reserve);
        QCOMPARE(int(e.action), int(Action::SegmentAlloc));
        QCOMPARE(e.addr, uint64_t(0x7f0000200000));
        QCOMPARE(e.size, uint64_t(20 << 20));
        QCOMPARE(e.stream, reinterpret_cast<uintptr_t>(&stream_token));
        QCOMPARE(e.device, 0);
        const auto change = segmentChangeOf(e);
        QVERIFY(change);
        QCOMPARE(change->size, int64_t(20 << 20));

        const Entry release(Entry::SEGMENT_UNMAP, 0, 0x7f0000200000, 2 << 20, nullptr, {0, 0}, {});
        const auto r = segmentChangeOf(compat::toAllocatorTraceEvent(release));
        QVERIFY(r);
        QCOMPARE(int(r->kind), int(EventKind::SegmentFree));
        QCOMPARE(r->size, -int64_t(2 << 20));

        const Entry alloc(Entry::ALLOC, 0, 0x7f0000200000, 512, nullptr, {0, 0}, {});
        QVERIFY(!segmentChangeOf(compat::toAllocatorTraceEvent(alloc)));
        // OOM: addr is the device's free bytes, no segment.
        const Entry oom(Entry::OOM, 0, 1 << 20, 4 << 20, nullptr, {0, 0}, {});
        QCOMPARE(int(compat::toAllocatorTraceEvent(oom).action), int(Action::Oom));
        QVERIFY(!segmentChangeOf(compat::toAllocatorTraceEvent(oom)));
#endif
    }

    // LibTorch cannot detach a tracker: the link attaches one function per process, and the
    // runs that follow come and go as its sink. Runs first in this process on purpose (the
    // rule is per process); a second attach hands nothing more to the allocator.
    void oneTrackerPerProcessAndSinksComeAndGo() {
        compat::AllocatorTraceTracker tracker;
        int handed = 0;
        const auto attacher = [&](compat::AllocatorTraceTracker t) {
            tracker = std::move(t);
            ++handed;
        };
        QCOMPARE(int(AllocatorTraceLink::attachWith(attacher)),
                 int(AllocatorTraceLink::State::Attached));
        QCOMPARE(int(AllocatorTraceLink::attachWith(attacher)),
                 int(AllocatorTraceLink::State::Attached));
        QCOMPARE(handed, 1);
        QCOMPARE(AllocatorTraceLink::attachCount(), 1);
        QVERIFY(tracker);
        // attach() itself (LibTorch's own) hands nothing more once attached.
        QCOMPARE(int(AllocatorTraceLink::attach()), int(AllocatorTraceLink::State::Attached));
        QCOMPARE(AllocatorTraceLink::attachCount(), 1);

        SegmentCounter first;
        AllocatorTraceLink::setSink(&first);
        tracker(traceEvent(Action::SegmentAlloc, 0x1000, 4096));
        tracker(traceEvent(Action::Alloc, 0x1000, 512));
        tracker(traceEvent(Action::SegmentFree, 0x1000, 4096));
        QCOMPARE(first.calls.size(), size_t(2));
        QCOMPARE(int(first.calls[0].kind), int(EventKind::SegmentAlloc));
        QCOMPARE(first.calls[0].size, int64_t(4096));
        QCOMPARE(first.calls[1].size, int64_t(-4096));
        QCOMPARE(first.calls[0].device, 0);

        // No sink: the tracker stays attached and reaches nobody.
        AllocatorTraceLink::setSink(nullptr);
        tracker(traceEvent(Action::SegmentAlloc, 0x2000, 4096));
        QCOMPARE(first.calls.size(), size_t(2));

        SegmentCounter second;
        AllocatorTraceLink::setSink(&second);
        tracker(traceEvent(Action::SegmentMap, 0x3000, 8192, 1));
        QCOMPARE(second.calls.size(), size_t(1));
        QCOMPARE(second.calls[0].device, 1);
        QCOMPARE(AllocatorTraceLink::attachCount(), 1);
        AllocatorTraceLink::setSink(nullptr);
    }

    // A recorder is the sink while its run thread runs: segment events with the reserved total
    // after each, which the trace pairs into segments.
    void theRecorderRecordsSegmentsWhileItsRunRuns() {
        Recorder recorder;
        recorder.onRunThreadStart();
        QCOMPARE(AllocatorTraceLink::sink(), static_cast<AllocationObserver*>(&recorder));
        const c10::Device gpu(c10::DeviceType::CUDA, 0);
        recorder.onSegment(EventKind::SegmentAlloc, 0x7f0000000000, 20 << 20, gpu);
        int block = 0;
        recorder.onMemoryEvent(&block, 512, 512, 512, 20 << 20, gpu);
        recorder.onSegment(EventKind::SegmentAlloc, 0x7f0002000000, 2 << 20, gpu);
        recorder.onSegment(EventKind::SegmentFree, 0x7f0002000000, -(2 << 20), gpu);
        recorder.onRunThreadEnd();
        QVERIFY(AllocatorTraceLink::sink() == nullptr);

        Trace t;
        QCOMPARE(recorder.drainInto(t), size_t(4));
        t.finalize();
        QCOMPARE(int(t.events.kind[0]), int(EventKind::SegmentAlloc));
        QCOMPARE(t.events.reserved[0], int64_t(20 << 20));
        QCOMPARE(t.events.reserved[2], int64_t(22 << 20));
        QCOMPARE(t.events.reserved[3], int64_t(20 << 20));
        QCOMPARE(t.events.device[3], int16_t(0));
        QVERIFY(t.hasCachingAllocator());
        QCOMPARE(t.segments().size(), size_t(2));
        QCOMPARE(t.segments()[0].size, int64_t(20 << 20));
        QCOMPARE(t.segments()[0].release_event, int64_t(-1));
        QCOMPARE(t.segments()[1].size, int64_t(2 << 20));
        QCOMPARE(t.segments()[1].release_event, int64_t(3));
    }
};

QTEST_GUILESS_MAIN(TestAllocatorTrace)
#include "test_allocator_trace.moc"
