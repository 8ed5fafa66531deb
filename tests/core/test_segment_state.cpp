// Segments of a caching allocator at an event (blocks by offset, free gaps) and the reserved
// figures derived from them (reserved peak, fragmentation at the allocated peak and at the OOM
// point), on traces built event by event with the offsets worked out by hand.

#include "segment_fixtures.h"

#include "explain/reserved_memory.h"
#include "explain/segment_state.h"
#include "explain/trace_summary.h"
#include "io/run_file.h"

#include <QtTest/QtTest>

using namespace memscope;
using namespace memscope::test;

namespace {

// "offset+size:CATEGORY ... | gap offset+size ..." per segment, in KiB.
QString describe(const SegmentState::SegmentBlocks& s) {
    QStringList parts;
    for (const auto& b : s.blocks) {
        parts << QStringLiteral("%1+%2:%3")
                     .arg(b.offset / 1024)
                     .arg(b.size / 1024)
                     .arg(QString::fromStdString(toString(b.category)));
    }
    parts << QStringLiteral("|");
    for (const auto& g : s.gaps) {
        parts << QStringLiteral("%1+%2").arg(g.offset / 1024).arg(g.size / 1024);
    }
    return parts.join(QLatin1Char(' '));
}

constexpr int64_t kKiB = 1024;
constexpr uint64_t kSeg = 0x10000000;

}  // namespace

class TestSegmentState : public QObject {
    Q_OBJECT

  private slots:
    void blocksSplitASegmentAndFreesLeaveGaps() {
        SegmentTraceBuilder b;
        b.reserve(kSeg, 100 * kKiB, 3, "large")           // 0
            .alloc(kSeg, 10 * kKiB, Category::Parameter)  // 1 alloc, 2 role
            .alloc(kSeg + 10 * kKiB, 30 * kKiB)           // 3
            .alloc(kSeg + 40 * kKiB, 20 * kKiB)           // 4
            .free(kSeg + 10 * kKiB);                      // 5
        // Categories: named by a Role event, else the timing rules (made and freed in one
        // forward: temporary; never freed: unknown).
        const Trace t = b.build();
        QCOMPARE(t.segments().size(), size_t(1));

        const auto before = SegmentState::at(t, -1);
        QCOMPARE(before.segments().size(), size_t(0));
        QCOMPARE(before.reserved(), int64_t(0));

        const auto split = SegmentState::at(t, 4);
        QCOMPARE(split.segments().size(), size_t(1));
        QCOMPARE(describe(split.segments()[0]),
                 QStringLiteral("0+10:PARAMETER 10+30:TEMPORARY 40+20:UNKNOWN | 60+40"));
        QCOMPARE(split.segments()[0].stream, int64_t(3));
        QCOMPARE(split.segments()[0].pool, std::string("large"));
        QCOMPARE(split.reserved(), 100 * kKiB);
        QCOMPARE(split.allocated(), 60 * kKiB);
        QCOMPARE(split.largestFreeBlock(), 40 * kKiB);
        QCOMPARE(split.freeBlocks(), int64_t(1));

        const auto freed = SegmentState::at(t, 5);
        QCOMPARE(describe(freed.segments()[0]),
                 QStringLiteral("0+10:PARAMETER 40+20:UNKNOWN | 10+30 60+40"));
        QCOMPARE(freed.freeBytes(), 70 * kKiB);
        QCOMPARE(freed.largestFreeBlock(), 40 * kKiB);
        QCOMPARE(freed.freeBlocks(), int64_t(2));
        QCOMPARE(freed.segments()[0].blocks[1].allocation, int64_t(2));
        QCOMPARE(freed.outsideBytes(), int64_t(0));
    }

    void releasedSegmentsAndSegmentsFromBeforeTheTrace() {
        SegmentTraceBuilder b;
        b.startWith(8 * kKiB, 64 * kKiB)                     // a segment and a block before
            .reserve(kSeg, 32 * kKiB)                        // 0
            .alloc(kSeg + 16 * kKiB, 16 * kKiB)              // 1
            .freeFromStart(0x20000000 + 4 * kKiB, 8 * kKiB)  // 2: lived in the old segment
            .free(kSeg + 16 * kKiB)                          // 3
            .release(kSeg)                                   // 4
            .releaseFromStart(0x20000000, 64 * kKiB);        // 5
        const Trace t = b.build();
        QCOMPARE(t.segments().size(), size_t(2));
        QCOMPARE(t.segments()[0].reserve_event, int64_t(-1));  // from the start, listed first

        const auto start = SegmentState::at(t, 1);
        QCOMPARE(start.segments().size(), size_t(2));  // by address: the new one first
        QCOMPARE(describe(start.segments()[0]), QStringLiteral("16+16:TEMPORARY | 0+16"));
        QCOMPARE(describe(start.segments()[1]), QStringLiteral("4+8:UNKNOWN | 0+4 12+52"));
        QCOMPARE(start.reserved(), 96 * kKiB);
        QCOMPARE(start.allocated(), 24 * kKiB);
        QCOMPARE(start.largestFreeBlock(), 52 * kKiB);

        const auto released = SegmentState::at(t, 4);  // the new segment released at 4
        QCOMPARE(released.segments().size(), size_t(1));
        QCOMPARE(released.segments()[0].addr, uint64_t(0x20000000));
        QCOMPARE(describe(released.segments()[0]), QStringLiteral("| 0+64"));
        QCOMPARE(SegmentState::at(t, 5).segments().size(), size_t(0));

        // The reserved series follows the column: 96 KiB after the reserve, down to 0.
        const auto r = ReservedMemory::compute(t);
        QVERIFY(r.cachingAllocator());
        QCOMPARE(r.peakReserved(), 96 * kKiB);
        QCOMPARE(r.peakReservedEvent(), int64_t(0));
    }

    void allocationsOutsideEverySegmentAreCountedApart() {
        SegmentTraceBuilder b;
        b.reserve(kSeg, 10 * kKiB).alloc(kSeg + 10 * kKiB, kKiB).alloc(kSeg + 2 * kKiB, kKiB);
        const auto s = SegmentState::at(b.build(), 2);
        QCOMPARE(s.outsideBytes(), kKiB);  // starts exactly at the segment's end
        QCOMPARE(s.allocated(), kKiB);
    }

    void fragmentationAtThePeakAndAtTheOom() {
        const Trace t = demoSegmentTrace();
        const auto r = ReservedMemory::compute(t);
        QVERIFY(r.cachingAllocator());
        // 20 + 2 + 64 MiB reserved when the optimizer state takes 40 MiB of the 64 MiB segment.
        QCOMPARE(r.peakReserved(), 86 * kMiB);
        QCOMPARE(t.events.kind[size_t(r.peakReservedEvent())], uint8_t(EventKind::SegmentAlloc));
        const auto& peak = r.atPeak();
        QCOMPARE(peak.event, t.peakEvent());
        QCOMPARE(peak.allocated, 58 * kMiB + kMiB / 4);  // 8 + 2 + 8 + 0.25 + 40
        QCOMPARE(peak.allocated, t.events.allocated[size_t(peak.event)]);
        QCOMPARE(peak.reserved, 86 * kMiB);
        QCOMPARE(peak.free_bytes, 27 * kMiB + 3 * kMiB / 4);
        QCOMPARE(peak.largest_free_block, 24 * kMiB);
        QCOMPARE(peak.free_blocks, int64_t(4));  // 2 MiB in s1, 1 and 0.75 MiB in s3, 24 in s4
        QCOMPARE(peak.segments, int64_t(3));
        // The OOM event holds the capacity (128 MiB) in its column, not a reserved total.
        QVERIFY(r.atOom().has_value());
        QCOMPARE(r.atOom()->reserved, 86 * kMiB);
        QCOMPARE(r.atOom()->free_bytes, peak.free_bytes);
        QCOMPARE(t.events.reserved[size_t(r.atOom()->event)], 128 * kMiB);

        const auto j = r.toJson();
        QCOMPARE(j["at_peak"]["largest_free_block_bytes"].get<int64_t>(), 24 * kMiB);
        QVERIFY(!j["at_oom"].is_null());
        const QString text = QString::fromStdString(ReservedMemory::toText(j));
        QVERIFY2(text.contains("Reserved peak: 86.0 MiB"), qPrintable(text));
        QVERIFY2(text.contains("Fragmentation at the OOM"), qPrintable(text));
        // TraceSummary carries the same figures (info prints them).
        const auto summary = TraceSummary::compute(t);
        QCOMPARE(summary["reserved"]["peak_reserved_bytes"].get<int64_t>(), 86 * kMiB);
    }

    void reservedTotalsWithoutSegments() {
        // A GPU recording on LibTorch 1.13: reserved totals from the allocator, no segments.
        Trace t;
        int64_t live = 0;
        const int64_t reserved[] = {2 * kMiB, 4 * kMiB, 4 * kMiB, 4 * kMiB};
        const int64_t sizes[] = {kMiB, 2 * kMiB, -kMiB, -2 * kMiB};
        const uint64_t addrs[] = {1, 2, 1, 2};
        for (int i = 0; i < 4; ++i) {
            Event e;
            e.kind = sizes[i] > 0 ? EventKind::Alloc : EventKind::Free;
            e.addr = addrs[i];
            e.size = sizes[i];
            live += sizes[i];
            e.allocated = live;
            e.reserved = reserved[i];
            e.device = 0;
            t.events.append(e);
        }
        t.finalize();
        QVERIFY(!t.hasCachingAllocator());  // no segments
        QVERIFY(ReservedMemory::hasCachingAllocator(t));
        const auto r = ReservedMemory::compute(t);
        QCOMPARE(r.peakReserved(), 4 * kMiB);
        QCOMPARE(r.peakReservedEvent(), int64_t(1));
        QCOMPARE(r.atPeak().event, int64_t(1));
        QCOMPARE(r.atPeak().free_bytes, kMiB);
        QCOMPARE(r.atPeak().largest_free_block, int64_t(-1));  // unknown without segments
        QVERIFY(!r.toJson()["at_peak"].contains("largest_free_block_bytes"));
        QVERIFY(!r.atOom().has_value());
    }

    void aCpuRunHasNoCachingAllocator() {
        SegmentTraceBuilder b(-1);
        b.alloc(1, kMiB).alloc(2, kMiB).free(1).oom(8 * kMiB, 4 * kMiB);  // emulated capacity
        Trace t = b.build();
        t.events.reserved.transform([](int64_t) { return 0; });  // the CPU allocator: none
        t.events.reserved.set(t.events.count() - 1, 4 * kMiB);   // but the OOM keeps the capacity
        QVERIFY(!ReservedMemory::hasCachingAllocator(t));
        const auto r = ReservedMemory::compute(t);
        QVERIFY(!r.cachingAllocator());
        QCOMPARE(r.toJson().dump(), std::string(R"({"caching_allocator":false})"));
        QCOMPARE(ReservedMemory::toText(r.toJson()),
                 std::string("Reserved: no caching allocator (CPU)\n"));
        const auto summary = TraceSummary::compute(t);
        QVERIFY(!summary["reserved"]["caching_allocator"].get<bool>());
        QVERIFY(QString::fromStdString(TraceSummary::toText(t, summary))
                    .contains("no caching allocator (CPU)"));
        // The same figures from a GPU (an imported snapshot without segments): not recorded,
        // rather than "CPU".
        t.meta.device = "cuda:0";
        const auto gpu = ReservedMemory::compute(t);
        QVERIFY(!gpu.cachingAllocator() && !gpu.onCpu());
        QCOMPARE(gpu.toJson().dump(), std::string(R"({"caching_allocator":false,"cpu":false})"));
        QCOMPARE(ReservedMemory::toText(gpu.toJson()),
                 std::string("Reserved: not recorded (this GPU run has neither segments nor "
                             "reserved totals)\n"));
    }

    // The demo run survives a save and load with its segments (what the screenshots open);
    // MEMSCOPE_DEMO_RUN=PATH keeps a copy.
    void demoRunRoundTrips() {
        QTemporaryDir dir;
        const QByteArray keep = qgetenv("MEMSCOPE_DEMO_RUN");
        const std::string path =
            keep.isEmpty() ? dir.filePath("demo.memscope").toStdString() : keep.toStdString();
        const Trace t = demoSegmentTrace();
        RunFile::save(t, path);
        const Trace loaded = RunFile::load(path);
        QCOMPARE(loaded.segments().size(), t.segments().size());
        const auto a = ReservedMemory::compute(t).toJson();
        const auto b = ReservedMemory::compute(loaded).toJson();
        QCOMPARE(b.dump(), a.dump());
    }
};

QTEST_GUILESS_MAIN(TestSegmentState)
#include "test_segment_state.moc"
